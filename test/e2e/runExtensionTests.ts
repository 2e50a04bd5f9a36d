// Runs the extension-host mocha suite (test/vscode/suite) inside code-server: the workbench takes
// extensionDevelopmentPath / extensionTestsPath from the URL and reports the exit code through
// window.codeAutomationExit.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { launchBrowser, OUT, ROOT, sampleWorkspace, startCodeServer } from './codeServer';

export async function runExtensionTests(): Promise<number> {
  const suite = path.join(ROOT, 'out', 'test', 'vscode', 'suite', 'index.js');
  if (!fs.existsSync(suite)) throw new Error(`${suite} is missing: run node test/vscode/build.mjs`);
  fs.mkdirSync(OUT, { recursive: true });
  const report = path.join(OUT, 'extension-tests.txt');
  fs.rmSync(report, { force: true });
  const ws = sampleWorkspace('ext-tests');
  const server = await startCodeServer('ext-tests', { AMTP_VSCODE_TEST_REPORT: report });
  const browser = await launchBrowser('ext-tests');
  const started = Date.now();
  try {
    let exit!: (code: number) => void;
    const exited = new Promise<number>((resolve) => (exit = resolve));
    await browser.page.exposeFunction('codeAutomationExit', (code: number) => exit(code));
    await browser.page.goto(server.workbenchUrl(ws, suite));
    const code = await Promise.race([exited, new Promise<number>((_, reject) => setTimeout(() => reject(new Error('extension tests did not finish in 4 min')), 240_000))]);
    await browser.page.screenshot({ path: path.join(OUT, 'extension-tests.png') }).catch(() => undefined);
    console.log(fs.existsSync(report) ? fs.readFileSync(report, 'utf8') : '(no report written: the suite did not load; see the code-server log below)');
    if (code !== 0 || !fs.existsSync(report)) console.log(server.log().split('\n').slice(-60).join('\n'));
    console.log(`extension tests in code-server: exit ${code} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return fs.existsSync(report) ? code : 1;
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(ws, { recursive: true, force: true });
  }
}

if (require.main === module) {
  runExtensionTests().then(
    (code) => process.exit(code),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
