// The answers to a quarantined test, end to end through the CLI (offline, padkit: zeroPad contradicts
// its README and is quarantined; upper() passes):
// - "docs are wrong" is a documentation issue of the run (its summary, with the person's note, the
//   module and symbol, the documented and the returned value), and of the next run that quarantines it again;
// - "real bug" keeps the test skipped in its quarantine file with the person's note, in this run's file
//   and in the one the next run writes;
// - "test is wrong" is a lesson, and the next offline run obeys it: the case is held back, not written.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../helpers/cli';
import { FIXTURES, copyWorkspace, removeWorkspace } from '../helpers/workspaces';

interface DocIssue {
  caseId: string;
  symbol: string;
  file: string;
  call: string;
  documented: string;
  actual?: string;
  error?: string;
  where?: string;
  reportedBy?: string;
  note?: string;
}
interface Summary {
  runId: string;
  cases: { id: string }[];
  decisions?: { heldBack: { caseId: string; verdict: string; reason?: string }[]; answered: { caseId: string; verdict: string }[] };
  verification: { results: { caseId: string; outcome: string; file?: string }[]; docIssues: DocIssue[]; quarantineFiles: string[] };
}

describe('answering a quarantined test through the CLI (issue 27)', function () {
  this.timeout(600_000);
  let ws: string;
  beforeEach(async () => {
    ws = await copyWorkspace(path.join(FIXTURES, 'verifier-buggy'));
  });
  afterEach(() => removeWorkspace(ws));

  const generate = async (...extra: string[]) => {
    const r = await runCli(['generate', ws, '--provider', 'offline', '--no-characterize', '--yes', ...extra]);
    return extra.includes('--json') ? (JSON.parse(r.stdout) as Summary) : r.stdout;
  };
  const first = async () => {
    const s = (await generate('--json')) as Summary;
    const q = s.verification.results.find((r) => r.outcome === 'quarantined');
    assert.ok(q?.file, JSON.stringify(s.verification.results));
    return { s, quarantined: q.caseId, qFile: q.file };
  };

  it('"docs are wrong" joins the documentation issues of the run, and of the next run, with the note and both values', async () => {
    const { s, quarantined } = await first();
    assert.deepEqual(s.verification.docIssues, [], 'a possible bug is no documentation issue until the person says so');
    const note = 'the README is wrong: it pads on the right';
    const r = await runCli(['review', s.runId, ws, '--docs-wrong', quarantined, '--reason', note]);
    assert.equal(r.code, 0, r.stderr);
    const expected: DocIssue = {
      caseId: quarantined,
      symbol: 'zeroPad',
      file: 'index.js',
      call: "zeroPad('7', 3)",
      documented: "'007'",
      actual: "'7  '",
      where: 'readme README.md:5+1',
      reportedBy: 'person',
      note,
    };
    const line = `documentation issue ${quarantined}: zeroPad (index.js): documented zeroPad('7', 3) → '007' (readme README.md:5+1); it returns '7  ' — you said the docs are wrong: ${note}`;
    assert.ok(r.stdout.includes(line), r.stdout);

    // Kept in the run record: the run's summary (as `amtp resume` prints it) reports it.
    const again = await runCli(['resume', s.runId, ws, '--json']);
    assert.deepEqual((JSON.parse(again.stdout) as Summary).verification.docIssues, [expected]);
    assert.ok((await runCli(['resume', s.runId, ws])).stdout.includes(`    ${line}`));

    // The next run quarantines it again and reports it from the decision.
    const next = (await generate('--json')) as Summary;
    assert.deepEqual(next.decisions?.answered, [{ caseId: quarantined, verdict: 'docs_wrong', reason: note }]);
    assert.deepEqual(next.verification.docIssues, [expected]);
    assert.ok(((await generate()) as string).includes(`    ${line}`));
  });

  it('"real bug" keeps the test skipped in its quarantine file with the note, also after the next run rewrites the file', async () => {
    const { s, quarantined, qFile } = await first();
    const note = 'zeroPad pads on the wrong side';
    const r = await runCli(['review', s.runId, ws, '--real-bug', quarantined, '--reason', note, '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout).skipped, [{ file: qFile, caseIds: [quarantined] }]);
    const skippedWithNote = async () => {
      const text = await fsp.readFile(path.join(ws, qFile), 'utf8');
      assert.ok(text.includes(`real bug (confirmed by you): ${note}`), text);
      const tap = spawnSync(process.execPath, ['--test', '--test-reporter=tap', qFile], { cwd: ws, encoding: 'utf8' });
      assert.match(tap.stdout, /^# skipped 1$/m, tap.stdout);
      assert.match(tap.stdout, /^# fail 0$/m, tap.stdout);
    };
    await skippedWithNote();

    const next = (await generate('--json')) as Summary;
    assert.deepEqual(next.decisions?.answered, [{ caseId: quarantined, verdict: 'real_bug', reason: note }]);
    assert.deepEqual(next.verification.quarantineFiles, [qFile]);
    assert.deepEqual(next.verification.docIssues, [], 'a real bug is no documentation issue');
    await skippedWithNote();
  });

  it('"test is wrong" removes the test, is a lesson, and the next offline run holds the case back', async () => {
    const { s, quarantined, qFile } = await first();
    const r = await runCli(['review', s.runId, ws, '--wrong-test', quarantined, '--reason', 'the padding width is wrong']);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!(await fsp.readFile(path.join(ws, qFile), 'utf8').catch(() => '')).includes(quarantined), 'removed now');

    const lessons = JSON.parse((await runCli(['lessons', 'list', ws, '--json'])).stdout).lessons as {
      id: string;
      source: string;
      file?: string;
      symbol?: string;
      text: string;
    }[];
    assert.deepEqual(
      lessons.map((l) => [l.id, l.source, l.file, l.symbol]),
      [[quarantined, 'wrong_test', 'index.js', 'zeroPad']],
    );
    assert.match(lessons[0].text, /said the test ".*" is wrong; the person's reason: the padding width is wrong\./);

    const next = (await generate('--json')) as Summary;
    assert.deepEqual(next.decisions?.heldBack, [{ caseId: quarantined, verdict: 'wrong_test', reason: 'the padding width is wrong' }]);
    assert.ok(!next.cases.some((c) => c.id === quarantined), 'not planned again');
    assert.ok(!next.verification.results.some((x) => x.caseId === quarantined), 'not written or verified');
    for (const f of await fsp.readdir(path.join(ws, 'test')))
      assert.ok(!(await fsp.readFile(path.join(ws, 'test', f), 'utf8')).includes(quarantined), `not written back into ${f}`);
  });
});
