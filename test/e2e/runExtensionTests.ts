// Runs the extension-host mocha suite (test/vscode/suite) inside code-server: the workbench takes
// extensionDevelopmentPath / extensionTestsPath from the URL and reports the exit code through
// window.codeAutomationExit. Two layers: a single-folder workspace (the whole suite), then a
// two-folder .code-workspace (the suite's multi-root file; suite/index.ts picks by the workspace).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { freshOutput, launchBrowser, multiRootWorkspace, OUT, ROOT, sampleWorkspace, saveFailure, startCodeServer } from './codeServer';
import { LAYER_DEADLINE_MS, within } from './deadlines';

const SUITE = path.join(ROOT, 'out', 'test', 'vscode', 'suite', 'index.js');

export async function runExtensionTests(): Promise<number> {
  if (!fs.existsSync(SUITE)) throw new Error(`${SUITE} is missing: run node test/vscode/build.mjs`);
  // AMTP_E2E_LAYER=single or multi-root runs one layer alone while working on it.
  const only = process.env.AMTP_E2E_LAYER;
  const single = only === 'multi-root' ? 0 : await runLayer('extension-tests', sampleWorkspace('ext-tests'));
  const multi = only === 'single' ? 0 : await runLayer('multi-root-tests', multiRootWorkspace('ext-multi-root'));
  return single || multi;
}

/** One code-server, one browser, the suite in workspace `ws` (a folder or a .code-workspace file). */
async function runLayer(layer: string, ws: string): Promise<number> {
  freshOutput(layer);
  const report = path.join(OUT, `${layer}.txt`);
  const server = await startCodeServer(layer, { env: { AMTP_VSCODE_TEST_REPORT: report } });
  const browser = await launchBrowser(layer);
  const started = Date.now();
  let code: number;
  try {
    let exit!: (code: number) => void;
    const exited = new Promise<number>((resolve) => (exit = resolve));
    await browser.page.exposeFunction('codeAutomationExit', (c: number) => exit(c));
    await browser.page.goto(server.workbenchUrl(ws, SUITE));
    // Each test has its own deadline inside (mocha's timeout); this one only catches a hang.
    code = await within(`the extension-host suite (${layer}) to report its exit code`, exited, LAYER_DEADLINE_MS).catch((e: Error) => {
      console.log(e.message);
      return 1;
    });
    await browser.page.screenshot({ path: path.join(OUT, `${layer}.png`) }).catch(() => undefined);
    console.log(
      fs.existsSync(report) ? fs.readFileSync(report, 'utf8') : '(no report written: the suite did not load; see the logs below)',
    );
    if (!fs.existsSync(report)) code = 1;
    if (code !== 0) await saveFailure(layer, browser.page, server);
    console.log(`extension tests in code-server (${layer}): exit ${code} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return code;
  } catch (e) {
    await saveFailure(layer, browser.page, server);
    throw e;
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(ws.endsWith('.code-workspace') ? path.dirname(ws) : ws, { recursive: true, force: true });
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
