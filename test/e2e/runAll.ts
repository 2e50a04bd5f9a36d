// `npm run test:e2e`: the extension-host suite inside code-server, then the browser UI test.
// Needs scripts/e2e/install.sh (Chromium + code-server); a missing tool fails, it never skips.
import { runExtensionTests } from './runExtensionTests';
import { runUiTest } from './ui.e2e';

async function main(): Promise<number> {
  const started = Date.now();
  const code = await runExtensionTests();
  if (code !== 0) return code;
  await runUiTest();
  console.log(`e2e: all passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
