// Issue 27's "Done when" in the real VS Code: a person rejects 2 tests with a reason and answers a
// quarantined one "docs are wrong" from the Test Cases tree. The next run does not bring the
// rejected tests back, reports the documentation issue, and obeys the lessons (offline: the rejected
// cases are held back). Then the confidence gate: with a threshold above the evidence, the run ends
// awaiting input with the tests listed, and keeping or rejecting each from the tree completes it.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AmtpApi } from '../../../client/src/extension';
import type { FolderLessons } from '../../../client/src/model/lessonsTree';
import { decisionLines } from '../../../client/src/model/runsModel';
import type * as P from '../../../server/src/protocol';
import { amtpApi, setUserSettings, until, ws } from './helpers';

const PAD = 'src/pad.js';
const PAD_CODE = [
  '/**',
  ' * Pads `s` on the left with zeros to `width` characters.',
  " * @example zeroPad('7', 3) // => '007'",
  ' */',
  'function zeroPad(s, width) {',
  "  return String(s).padEnd(width, ' ');",
  '}',
  '/**',
  ' * Upper-cases a string.',
  " * @example upper('abc') // => 'ABC'",
  ' */',
  'function upper(s) {',
  '  return String(s).toUpperCase();',
  '}',
  '/**',
  ' * Lower-cases a string.',
  " * @example lower('ABC') // => 'abc'",
  ' */',
  'function lower(s) {',
  '  return String(s).toLowerCase();',
  '}',
  '/**',
  ' * Adds an exclamation mark.',
  " * @example shout('hi') // => 'hi!'",
  ' */',
  'function shout(s) {',
  '  return `${s}!`;',
  '}',
  'module.exports = { zeroPad, upper, lower, shout };',
  '',
].join('\n');

const node = (run: P.RunView, c: P.CaseView) => ({ kind: 'case' as const, runId: run.runId, case: c });
const generatePad = () => vscode.commands.executeCommand<P.RunView>('amtp.generateForFile', vscode.Uri.file(path.join(ws(), PAD)));
const onDisk = (file: string) => fs.readFileSync(path.join(ws(), file), 'utf8');

describe('per-test review and the confidence gate (real extension host)', () => {
  let api: AmtpApi;
  let restore: () => Promise<void>;
  before(async () => {
    api = await amtpApi();
    restore = await setUserSettings({ provider: 'offline', riskOverrides: { 'tests.run': 'medium' }, characterize: false });
    fs.writeFileSync(path.join(ws(), PAD), PAD_CODE);
  });
  after(async () => {
    await restore();
  });

  it('rejects 2 tests with a reason and answers a quarantined one "docs are wrong"; the next run keeps those decisions', async () => {
    const first = await generatePad();
    assert.ok(first, 'the command returns the finished run');
    const quarantined = first.cases.find((c) => c.status === 'quarantined');
    assert.ok(quarantined, `zeroPad contradicts its docs: ${JSON.stringify(first.cases.map((c) => [c.title, c.status]))}`);
    const passing = first.cases.filter((c) => c.status === 'passing' && c.testFile);
    assert.ok(passing.length >= 2, JSON.stringify(first.cases.map((c) => [c.title, c.status])));
    const rejected = passing.slice(0, 2);
    const file = rejected[0].testFile!;
    for (const c of rejected) await vscode.commands.executeCommand('amtp.rejectTest', node(first, c), 'covered by our own tests');
    await vscode.commands.executeCommand(
      'amtp.answerQuarantine',
      node(first, quarantined),
      'docs_wrong',
      'the docs are wrong: it pads on the right',
    );
    for (const c of rejected) assert.ok(!onDisk(file).includes(c.id), `${c.id} is removed from ${file} now`);
    // The Lessons view shows what the next run will be told: each rejection with its module and reason.
    const [folder] = await vscode.commands.executeCommand<FolderLessons[]>('amtp.refreshLessons');
    const lessons = 'error' in folder.lessons ? assert.fail(folder.lessons.error) : folder.lessons;
    for (const c of rejected) {
      const l = lessons.find((x) => x.id === c.id && x.source === 'rejected');
      assert.ok(l && l.file === c.target.file && l.text.includes('covered by our own tests'), JSON.stringify(lessons));
    }
    assert.ok(
      lessons.some((x) => x.id === quarantined.id && x.source === 'docs_wrong'),
      JSON.stringify(lessons),
    );

    const next = await generatePad();
    assert.ok(next);
    for (const c of rejected) {
      assert.ok(!next.cases.some((x) => x.id === c.id), `${c.title} is not planned again`);
      assert.ok(!onDisk(file).includes(c.id), `${c.title} is not written back`);
    }
    assert.deepEqual(
      next.decisions?.heldBack.map((h) => [h.caseId, h.verdict, h.reason]).sort(),
      rejected.map((c) => [c.id, 'rejected', 'covered by our own tests']).sort(),
    );
    assert.deepEqual(
      next.decisions?.answered.map((a) => [a.caseId, a.verdict]),
      [[quarantined.id, 'docs_wrong']],
    );
    // The run's row reports the documentation issue (its tooltip), from the run the tree holds.
    const shown = await until('the next run in the Test Cases tree', () => api.model.get(next.runId));
    assert.ok(
      decisionLines(shown).some((l) => l.startsWith('documentation issue (you said the docs are wrong)')),
      decisionLines(shown).join('\n'),
    );
  });

  it('tests below the confidence threshold end the run awaiting input with the list; keeping and rejecting them completes it', async () => {
    const put = await setUserSettings({ confidenceThreshold: 0.99 });
    try {
      const run = await generatePad();
      assert.ok(run);
      assert.equal(run.status, 'awaiting_input', run.reason);
      assert.match(run.reason ?? '', /wait for review/);
      const waiting = run.cases.filter((c) => c.awaitingReview);
      assert.equal(waiting.length, run.confidence?.awaiting);
      assert.ok(waiting.length >= 1);
      for (const c of waiting) assert.ok(c.confidence !== undefined && c.confidence < 0.99);
      const [keep, ...drop] = waiting;
      await vscode.commands.executeCommand('amtp.acceptTest', node(run, keep));
      for (const c of drop) await vscode.commands.executeCommand('amtp.rejectTest', node(run, c), 'not sure of it');
      const done = await until('the run to complete once no test waits', () => {
        const r = api.model.get(run.runId);
        return r?.status === 'completed' ? r : undefined;
      });
      assert.equal(done.cases.filter((c) => c.awaitingReview).length, 0);
      assert.ok(onDisk(keep.testFile!).includes(keep.id), 'the kept test stays in its file');
    } finally {
      await put();
    }
  });
});
