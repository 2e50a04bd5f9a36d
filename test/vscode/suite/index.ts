// Mocha entry the extension host loads (extensionTestsPath). Shared by @vscode/test-electron and
// the code-server runner. The report also goes to a file, because in code-server the extension
// host's stdout is not the runner's.
/* eslint-disable @typescript-eslint/no-explicit-any -- mocha 12 is loaded as ESM at run time, untyped here */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { TEST_DEADLINE_MS } from '../../e2e/deadlines';

/** The one file that needs a workspace of several folders; every other file needs a single folder. */
const MULTI_ROOT_TEST = 'multiRoot.test.js';

// mocha 12 is ESM; a real dynamic import (not rewritten to require by the bundler).
const importEsm = new Function('s', 'return import(s)') as (s: string) => Promise<any>;

export async function run(): Promise<void> {
  const { default: Mocha } = await importEsm('mocha');
  const reportFile = process.env.AMTP_VSCODE_TEST_REPORT ?? path.join(__dirname, '..', 'report.txt');
  fs.mkdirSync(path.dirname(reportFile), { recursive: true });
  fs.writeFileSync(reportFile, '');
  // AMTP_E2E_GREP narrows the suite to matching tests while working on one of them.
  const mocha = new Mocha({
    ui: 'bdd',
    timeout: TEST_DEADLINE_MS,
    grep: process.env.AMTP_E2E_GREP || undefined,
    color: false,
    reporter: FileReporter(Mocha, reportFile),
  });
  const multiRoot = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
  for (const f of fs
    .readdirSync(__dirname)
    .filter((f) => f.endsWith('.test.js') && (f === MULTI_ROOT_TEST) === multiRoot)
    .sort())
    mocha.addFile(path.join(__dirname, f));
  await mocha.loadFilesAsync();
  const failures = await new Promise<number>((resolve) => mocha.run(resolve));
  if (failures > 0) throw new Error(`${failures} extension test(s) failed (report: ${reportFile})`);
}

/** The spec reporter's lines, appended to a file as they happen (and to the console). */
function FileReporter(Mocha: any, file: string) {
  const { EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_RUN_END, EVENT_SUITE_BEGIN } = Mocha.Runner.constants;
  return class {
    constructor(runner: any) {
      const out = (line: string) => {
        fs.appendFileSync(file, `${line}\n`);
        console.log(line);
      };
      runner.on(EVENT_SUITE_BEGIN, (s: any) => s.title && out(`\n${s.title}`));
      runner.on(EVENT_TEST_PASS, (t: any) => out(`  ✔ ${t.title} (${t.duration ?? 0}ms)`));
      runner.on(EVENT_TEST_FAIL, (t: any, err: Error) => out(`  ✗ ${t.title}\n${String(err?.stack ?? err).replace(/^/gm, '      ')}`));
      runner.once(EVENT_RUN_END, () => out(`\n${runner.stats.passes} passing, ${runner.stats.failures} failing`));
    }
  };
}
