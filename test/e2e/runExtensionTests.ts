// Runs the extension-host mocha suite (test/vscode/suite) inside code-server: the workbench takes
// extensionDevelopmentPath / extensionTestsPath from the URL and reports the exit code through
// window.codeAutomationExit.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { freshOutput, launchBrowser, OUT, ROOT, sampleWorkspace, saveFailure, startCodeServer } from './codeServer';
import { LAYER_DEADLINE_MS, within } from './deadlines';

export async function runExtensionTests(): Promise<number> {
  const suite = path.join(ROOT, 'out', 'test', 'vscode', 'suite', 'index.js');
  if (!fs.existsSync(suite)) throw new Error(`${suite} is missing: run node test/vscode/build.mjs`);
  freshOutput('extension-tests');
  const report = path.join(OUT, 'extension-tests.txt');
  const ws = sampleWorkspace('ext-tests');
  const server = await startCodeServer('ext-tests', { env: { AMTP_VSCODE_TEST_REPORT: report } });
  const browser = await launchBrowser('ext-tests');
  const started = Date.now();
  let code: number;
  try {
    let exit!: (code: number) => void;
    const exited = new Promise<number>((resolve) => (exit = resolve));
    await browser.page.exposeFunction('codeAutomationExit', (c: number) => exit(c));
    await browser.page.goto(server.workbenchUrl(ws, suite));
    // Each test has its own deadline inside (mocha's timeout); this one only catches a hang.
    code = await within('the extension-host suite to report its exit code', exited, LAYER_DEADLINE_MS).catch((e: Error) => {
      console.log(e.message);
      return 1;
    });
    await browser.page.screenshot({ path: path.join(OUT, 'extension-tests.png') }).catch(() => undefined);
    console.log(
      fs.existsSync(report) ? fs.readFileSync(report, 'utf8') : '(no report written: the suite did not load; see the logs below)',
    );
    if (!fs.existsSync(report)) code = 1;
    if (code !== 0) await saveFailure('extension-tests', browser.page, server);
    console.log(`extension tests in code-server: exit ${code} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return code;
  } catch (e) {
    await saveFailure('extension-tests', browser.page, server);
    throw e;
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
