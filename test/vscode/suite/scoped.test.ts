// Generating from where people work: the CodeLens above an exported function, and "Generate
// Tests for This File" from the context menus, each run the same pipeline scoped to what they name.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type * as P from '../../../server/src/protocol';
import { isKept, outcomeLine, runTally } from '../../../client/src/model/runTally';
import { amtpApi, setUserSettings, TEST_FILE, until, ws } from './helpers';

const EXTRA = 'src/extra.js';
/** A test file of the person's own, outside every run (issue 27). */
const OWN_FILE = 'test/own.test.js';

describe('scoped generation from the editor (real extension host)', () => {
  let restore: () => Promise<void>;
  before(async () => {
    await amtpApi();
    // The person's own settings: no quick picks (defaults) and tests run without asking here.
    restore = await setUserSettings({
      provider: 'offline',
      riskOverrides: { 'tests.run': 'medium' },
      defaultDepth: 'standard',
      defaultFramework: 'auto',
    });
  });
  after(async () => {
    fs.rmSync(path.join(ws(), EXTRA), { force: true });
    fs.rmSync(path.join(ws(), OWN_FILE), { force: true });
    await restore();
  });

  it('shows a "Generate tests" CodeLens above each exported function, and one click plans only that function', async () => {
    const uri = vscode.Uri.file(path.join(ws(), 'src/index.js'));
    await vscode.window.showTextDocument(uri);
    const lenses = await until('the CodeLenses of src/index.js', async () => {
      const l = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri);
      return l?.filter((x) => x.command?.command === 'amtp.generateForSymbol').length ? l : undefined;
    });
    const named = lenses.filter((l) => l.command?.command === 'amtp.generateForSymbol').map((l) => l.command!.arguments![1] as string);
    assert.deepEqual(named.sort(), ['clamp', 'formatBytes', 'parseDuration', 'slugify']);
    const clamp = lenses.find((l) => l.command?.arguments?.[1] === 'clamp')!;
    const text = fs.readFileSync(uri.fsPath, 'utf8').split('\n');
    assert.match(text[clamp.range.start.line], /function clamp\b/, 'the lens sits on the function');
    // AMTP's own test file from the earlier runs is merged into, never overwritten: nothing to approve.
    const api = await amtpApi();
    // The person's own test in AMTP's file: the Testing view lists it too, and it stays.
    fs.appendFileSync(path.join(ws(), TEST_FILE), "\nit('my own check', () => {\n  assert.strictEqual(1 + 1, 2);\n});\n");
    let ended = false;
    const running = Promise.resolve(
      vscode.commands.executeCommand<P.RunView>(clamp.command!.command, ...clamp.command!.arguments!),
    ).finally(() => (ended = true));
    const asked = await until('the scoped run to end (or ask for an approval)', () =>
      ended ? 'none' : api.approvals.queue.latest()?.params,
    );
    if (asked !== 'none') {
      await vscode.commands.executeCommand('amtp.reject', asked.approvalId, 'scoped e2e: nothing should need approval');
      assert.fail(
        `the scoped run asked for ${asked.tool} (${asked.risk}) on ${asked.target}; before:\n${asked.diff?.before?.slice(0, 600) ?? '(none)'}`,
      );
    }
    const run = await running;
    assert.ok(run, 'the command returns the finished run');
    assert.ok(run.cases.length > 0, JSON.stringify(run));
    assert.deepEqual([...new Set(run.cases.map((c) => c.target.symbol))], ['clamp']);
    // The Testing view still lists every AMTP test of the file, the earlier workspace run's included.
    const onDisk = [
      ...fs.readFileSync(path.join(ws(), TEST_FILE), 'utf8').matchAll(/^\s*it\('.*', \(\) => \{ \/\/ (tc_[0-9a-f]{12})$/gm),
    ].map((m) => m[1]);
    assert.ok(
      onDisk.some((id) => !run.cases.some((c) => c.id === id)),
      'the file holds tests of the earlier run too',
    );
    const own = `own:${TEST_FILE}::my own check`;
    const listed = await until('the Testing view to list every test of the file', () => {
      const ids: string[] = [];
      api.testing.controller.items.get(`file:${TEST_FILE}`)?.children.forEach((c) => void ids.push(c.id));
      return ids.length === onDisk.length + 1 ? ids : undefined;
    }).catch((e: Error) => assert.fail(`${e.message}: the file holds ${onDisk.join(', ')} and the person's own test`));
    assert.deepEqual([...listed].sort(), [...onDisk, own].sort());
    // The finished run's message counts what is on disk: its kept tests are the ones the file holds.
    const tally = runTally(run);
    const content = fs.readFileSync(path.join(ws(), TEST_FILE), 'utf8');
    assert.equal(tally.kept, run.cases.filter((c) => isKept(c) && content.includes(`// ${c.id}`)).length);
    assert.match(outcomeLine(run), new RegExp(`${tally.kept} tests? kept in 1 file`));
    // The person's test runs from the Testing view like AMTP's, by its name.
    const summary = await api.testing.runTests(undefined, undefined, undefined, [], false, [
      { file: TEST_FILE, name: 'my own check', suites: [] },
    ]);
    assert.equal(summary.results.get(own), 'passing');
  });

  it("lists the person's own test file in the Testing view, follows it on disk and runs its tests by name", async () => {
    const api = await amtpApi();
    const id = `file:${OWN_FILE}`;
    // A file the project's `node --test test/` runs, written after the extension started: the watcher finds it.
    fs.mkdirSync(path.join(ws(), 'test'), { recursive: true });
    fs.writeFileSync(
      path.join(ws(), OWN_FILE),
      "const { describe, it } = require('node:test');\nconst assert = require('node:assert');\n\ndescribe('math', () => {\n  it('adds', () => {\n    assert.strictEqual(1 + 1, 2);\n  });\n});\n",
    );
    const item = await until('the Testing view to list test/own.test.js', () => api.testing.controller.items.get(id));
    // Its tests are read when the item is expanded (resolveHandler), with their lines for the gutter icons.
    await api.testing.controller.resolveHandler!(item);
    const adds = `own:${OWN_FILE}::math adds`;
    const child = await until('its test', () => api.testing.controller.items.get(id)?.children.get(adds));
    assert.equal(child.range?.start.line, 4);
    assert.equal(child.uri?.fsPath, path.join(ws(), OWN_FILE));
    // A test added to the open file shows up: a changed file is read again.
    await vscode.window.showTextDocument(vscode.Uri.file(path.join(ws(), OWN_FILE)));
    fs.appendFileSync(path.join(ws(), OWN_FILE), "\nit('subtracts', () => {\n  assert.strictEqual(3 - 1, 2);\n});\n");
    const subtracts = `own:${OWN_FILE}::subtracts`;
    await until('the added test', () => api.testing.controller.items.get(id)?.children.get(subtracts));
    // Run: the project's runner, through the server's gate, filtered to the one test.
    const summary = await api.testing.runOwnFiles([{ file: OWN_FILE, name: 'adds', suites: ['math'] }], false);
    assert.equal(summary.results.get(adds), 'passing');
    assert.equal(summary.results.has(subtracts), false, 'only the asked test ran');
    fs.rmSync(path.join(ws(), OWN_FILE));
    await until('the deleted file to leave the Testing view', () => !api.testing.controller.items.get(id));
  });

  it('"Generate Tests for This File" plans only that file', async () => {
    fs.writeFileSync(
      path.join(ws(), EXTRA),
      '/**\n * Triples a number.\n * @example triple(2) // => 6\n */\nfunction triple(x) {\n  return x * 3;\n}\nmodule.exports = { triple };\n',
    );
    const run = await vscode.commands.executeCommand<P.RunView>('amtp.generateForFile', vscode.Uri.file(path.join(ws(), EXTRA)));
    assert.ok(run);
    assert.ok(run.cases.length > 0);
    assert.deepEqual([...new Set(run.cases.map((c) => c.target.file))], [EXTRA]);
    const menus = vscode.extensions.getExtension('amtp.amtp')!.packageJSON.contributes.menus;
    assert.ok(menus['editor/context'].some((m: { command: string }) => m.command === 'amtp.generateForFile'));
    assert.ok(menus['explorer/context'].some((m: { command: string }) => m.command === 'amtp.generateForFile'));
  });

  it('contributes a walkthrough that opens', async () => {
    const walkthroughs = vscode.extensions.getExtension('amtp.amtp')!.packageJSON.contributes.walkthroughs as {
      id: string;
      steps: { id: string }[];
    }[];
    assert.deepEqual(
      walkthroughs.map((w) => w.id),
      ['amtp.start'],
    );
    assert.deepEqual(
      walkthroughs[0].steps.map((s) => s.id),
      ['provider', 'generate', 'approvals', 'run'],
    );
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', 'amtp.amtp#amtp.start', false);
  });
});
