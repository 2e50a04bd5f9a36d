// The verifier end to end through the CLI: fixtures under test/fixtures/verifier-*, real node:test
// runs, the fake OpenAI server for repairs. Workspaces live under <repo>/test-output so the runners
// and c8 resolve from this repo's node_modules, as in a real project.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../helpers/cli';
import { FakeOpenAi, type ReceivedRequest } from '../helpers/fakeOpenAi';
import { CASE_ID, GOOD_TEST_PATH, goodEngineerOutput, goodModel, repairReply } from '../helpers/scriptedModel';
import { requirePytest } from '../helpers/python';

const REPO = path.resolve(__dirname, '../..');
const WORK = path.join(REPO, 'test-output');

async function copyFixture(name: string): Promise<string> {
  await fsp.mkdir(WORK, { recursive: true });
  const root = await fsp.mkdtemp(path.join(WORK, `verifier-${name}-`));
  const ws = path.join(root, name);
  await fsp.cp(path.join(REPO, 'test/fixtures', `verifier-${name}`), ws, { recursive: true });
  return ws;
}

interface Summary {
  runId: string;
  status: string;
  reason?: string;
  files: { path: string; action: string }[];
  approvals: { tool: string; risk: string; decision: string }[];
  verification?: {
    status: string;
    reason?: string;
    runs: number;
    executions: number;
    filters: { step: string; kept: number; dropped: number; quarantined?: number; names: string[] }[];
    results: { caseId: string; outcome: string; reason?: string; file?: string; test?: string }[];
    coverage: { before?: number; after?: number; tool?: string; statements?: number; branches?: number; beyondImport?: number };
    quarantineFiles: string[];
    unmet: { caseId: string; reason?: string }[];
    repairs: { caseId: string; attempt: number; outcome: string }[];
  };
}

const parse = (stdout: string) => JSON.parse(stdout) as Summary;

/** Runs node:test on a file and returns its TAP counts. */
function nodeTest(ws: string, file: string, env: Record<string, string> = {}): { pass: number; fail: number; skip: number; out: string } {
  const r = spawnSync(process.execPath, ['--test', '--test-reporter=tap', file], {
    cwd: ws,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  const n = (k: string) => Number(new RegExp(`^# ${k} (\\d+)`, 'm').exec(r.stdout)?.[1] ?? -1);
  return { pass: n('pass'), fail: n('fail'), skip: n('skipped'), out: r.stdout };
}

describe('verifier: run what was written, keep only assured tests', function () {
  this.timeout(180_000);
  const dirs: string[] = [];
  after(async () => {
    for (const d of dirs) await fsp.rm(path.dirname(d), { recursive: true, force: true });
  });

  it('a test that fails only on its second run is detected as flaky, named, and removed from the file', async () => {
    const ws = await copyFixture('flaky');
    dirs.push(ws);
    const r = await runCli(['generate', ws, '--provider', 'offline', '--yes', '--json']);
    const s = parse(r.stdout);
    const v = s.verification!;
    assert.equal(v.status, 'done');
    const flaky = v.results.filter((x) => x.outcome === 'flaky');
    assert.equal(flaky.length, 1, JSON.stringify(v.results));
    assert.match(flaky[0].reason!, /flaky: passed 2 of 3 runs \(run 2: failed/);
    // A dropped P0/P1 case is not a met goal: the run needs review, with the case and its reason listed.
    assert.equal(r.code, 3, r.stderr);
    assert.equal(s.status, 'needs_review');
    assert.deepEqual(
      v.unmet.map((u) => u.caseId),
      [flaky[0].caseId],
    );
    assert.match(v.unmet[0].reason!, /^flaky: flaky: passed 2 of 3 runs/);
    assert.ok(s.reason!.includes(flaky[0].caseId), s.reason);
    const step = v.filters.find((f) => f.step === 'passes_every_run')!;
    assert.equal(step.dropped, 1);
    assert.ok(
      // named by its readable title (the case id sits in a comment on the test's first line)
      step.names.some((n) => n.includes('double(2) returns 4')),
      step.names.join(' | '),
    );
    const file = s.files[0].path;
    const text = await fsp.readFile(path.join(ws, file), 'utf8');
    assert.ok(!text.includes(flaky[0].caseId), 'the flaky test is gone from the file');
    assert.match(text, /triple\(2\)/, 'the stable test stays');
  });

  it('a library whose code contradicts its README: the test is quarantined (skipped) naming observed vs documented', async () => {
    const ws = await copyFixture('buggy');
    dirs.push(ws);
    const r = await runCli(['generate', ws, '--provider', 'offline', '--yes', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const v = parse(r.stdout).verification!;
    const q = v.results.filter((x) => x.outcome === 'quarantined');
    assert.equal(q.length, 1, JSON.stringify(v.results));
    // observed and documented verbatim, JSON-quoted, as node:assert printed them
    assert.match(q[0].reason!, /possible bug in zeroPad \(index\.js\): documented zeroPad\('7', 3\) → "'007'" .*observed: "'7 {2}'"$/);
    assert.deepEqual(v.quarantineFiles, ['test/padkit.amtp.quarantine.test.js']);
    assert.equal(q[0].file, 'test/padkit.amtp.quarantine.test.js');
    assert.equal(v.filters.find((f) => f.step === 'passes_every_run')!.quarantined, 1);
    const quarantine = await fsp.readFile(path.join(ws, v.quarantineFiles[0]), 'utf8');
    assert.match(quarantine, /it\.skip\('zeroPad\(.*', \(\) => \{ \/\/ tc_[0-9a-f]{12}\n/);
    assert.match(quarantine, /AMTP quarantine: possible bug in zeroPad/);
    const main = await fsp.readFile(path.join(ws, 'test/padkit.amtp.test.js'), 'utf8');
    assert.ok(!main.includes(q[0].caseId), 'moved out of the main file');
    // The suite on disk: assured tests pass, the quarantined one is skipped, nothing fails.
    const run = nodeTest(ws, 'test/');
    assert.equal(run.fail, 0, run.out);
    assert.equal(run.skip, 1, run.out);
    assert.ok(run.pass >= 1);
    assert.equal(parse(r.stdout).status, 'completed', 'every P0/P1 case has a passing or a quarantined test');
  });

  it('a hanging test is killed at the timeout with its whole process group, and dropped', async () => {
    const ws = await copyFixture('hang');
    dirs.push(ws);
    const started = Date.now();
    const r = await runCli(['generate', ws, '--provider', 'offline', '--yes', '--json', '--test-timeout', '3']);
    const s = parse(r.stdout);
    const v = s.verification!;
    const hung = v.results.filter((x) => /hangs: killed after 3 s/.test(x.reason ?? ''));
    assert.equal(hung.length, 1, JSON.stringify(v.results));
    assert.equal(hung[0].outcome, 'dropped');
    assert.equal(r.code, 3, 'the hanging P0/P1 case is unmet: needs review');
    assert.deepEqual(
      v.unmet.map((u) => [u.caseId, u.reason]),
      [[hung[0].caseId, 'dropped: hangs: killed after 3 s with its whole process group']],
    );
    assert.ok(
      v.results.some((x) => x.outcome === 'passing'),
      'inc() still has its test',
    );
    assert.ok(Date.now() - started < 120_000);
    const record = JSON.parse(await fsp.readFile(path.join(ws, '.amtp/runs', `${s.runId}.json`), 'utf8'));
    const pids: number[] = record.verification.pids;
    assert.ok(pids.length >= v.executions && pids.length > 0, `${pids.length} pids for ${v.executions} runs`);
    // A killed group's last processes may still be exiting on a busy machine: wait on the state,
    // with a deadline, rather than look once.
    const alive = (target: number) => {
      try {
        process.kill(target, 0);
        return true;
      } catch (e) {
        return (e as NodeJS.ErrnoException).code !== 'ESRCH';
      }
    };
    const deadline = Date.now() + 20_000;
    let left = pids.filter((pid) => alive(-pid) || alive(pid));
    while (left.length && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      left = left.filter((pid) => alive(-pid) || alive(pid));
    }
    assert.deepEqual(left, [], 'every process group the verifier started is gone');
    const ps = spawnSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' }).stdout;
    assert.ok(!ps.split('\n').some((l) => l.includes(ws)), `no process still runs in the workspace:\n${ps}`);
    const text = await fsp.readFile(path.join(ws, s.files[0].path), 'utf8');
    assert.ok(!text.includes('settle()'), 'the hanging test is gone from the file');
  });

  it('without a TTY or --yes the test run waits (exit 4) and nothing executes; rejecting it keeps it that way; approving runs it', async () => {
    const ws = await copyFixture('marker');
    dirs.push(ws);
    const marker = path.join(path.dirname(ws), 'ran.marker'); // written by the fixture when it loads
    // Characterization asks the same run-wide question earlier; here the verifier's own request is the subject.
    const first = await runCli(['generate', ws, '--provider', 'offline', '--no-characterize', '--json']);
    assert.equal(first.code, 4, first.stderr);
    const s1 = parse(first.stdout);
    assert.equal(s1.status, 'awaiting_approval');
    assert.equal(s1.verification!.status, 'awaiting_approval');
    assert.deepEqual(
      s1.approvals.map((a) => [a.tool, a.risk, a.decision]),
      [['tests.run', 'high', 'pending']],
    );
    assert.equal(existsSync(marker), false, 'pending: nothing ran');

    const rejected = await runCli(['approve', s1.runId, ws, '--reject', '--json']);
    assert.equal(rejected.code, 0, rejected.stderr);
    const s2 = parse(rejected.stdout);
    assert.equal(s2.status, 'completed');
    assert.equal(s2.verification!.status, 'rejected');
    assert.match(s2.verification!.reason!, /nothing was executed/);
    assert.equal(s2.verification!.executions, 0);
    assert.equal(existsSync(marker), false, 'rejected: nothing ran');
    const record = JSON.parse(await fsp.readFile(path.join(ws, '.amtp/runs', `${s1.runId}.json`), 'utf8'));
    assert.deepEqual(
      record.audit.filter((a: { tool: string }) => a.tool === 'tests.run').map((a: { outcome: string }) => a.outcome),
      ['refused', 'refused'],
    );

    const again = parse((await runCli(['generate', ws, '--provider', 'offline', '--no-characterize', '--json'])).stdout);
    assert.equal(again.status, 'awaiting_approval');
    const approved = await runCli(['approve', again.runId, ws, '--json']);
    assert.equal(approved.code, 0, approved.stderr);
    assert.equal(parse(approved.stdout).verification!.status, 'done');
    assert.equal(existsSync(marker), true, 'approved: the tests ran');
  });

  it('pytest: results map to case ids through the JUnit XML; every doctest-derived test passes 3 of 3; coverage with nothing installed', async function () {
    requirePytest();
    await fsp.mkdir(WORK, { recursive: true });
    const ws = path.join(await fsp.mkdtemp(path.join(WORK, 'verifier-py-')), 'py-textkit');
    await fsp.cp(path.join(REPO, 'test/fixtures/py-textkit'), ws, { recursive: true });
    dirs.push(ws);
    const r = await runCli(['generate', ws, '--provider', 'offline', '--yes', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const v = parse(r.stdout).verification!;
    assert.equal(v.status, 'done');
    assert.ok(v.results.length >= 10);
    // Coverage needs nothing installed (coverage.py when present, else AMTP's tracer), so the
    // "adds coverage" filter runs: the "is callable" tests cover nothing loading does not.
    const notPassing = v.results.filter((x) => x.outcome !== 'passing');
    assert.ok(
      notPassing.every((x) => x.outcome === 'dropped' && /^adds no coverage/.test(x.reason ?? '')),
      JSON.stringify(notPassing),
    );
    // Existence checks are planned only for exports nothing else tests; any that are go for adding
    // nothing beyond import (test/integration/coverageOut.test.ts makes one on purpose).
    const existenceOnly = v.results.filter((x) => /is_callable/.test(x.test ?? ''));
    assert.ok(
      existenceOnly.every((x) => x.outcome === 'dropped' && /nothing beyond what loading its file covers/.test(x.reason ?? '')),
      JSON.stringify(existenceOnly),
    );
    assert.equal(v.filters[0].dropped + v.filters[1].dropped, 0);
    assert.match(v.coverage.tool ?? '', /^(coverage\.py|amtp trace \(lines\))$/);
    assert.ok(v.coverage.statements! > 0 && v.coverage.statements! <= 100, JSON.stringify(v.coverage));
    assert.ok(v.coverage.beyondImport! > 0 && v.coverage.beyondImport! <= 100, JSON.stringify(v.coverage));
  });

  it('--no-verify skips the stage with the reason on record; bad --runs is a usage error', async () => {
    const ws = await copyFixture('marker');
    dirs.push(ws);
    // Writing tests without running anything is --no-verify with --no-characterize (docs/ci.md).
    const r = await runCli(['generate', ws, '--provider', 'offline', '--no-verify', '--no-characterize', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const s = parse(r.stdout);
    assert.equal(s.verification!.status, 'skipped');
    assert.match(s.verification!.reason!, /--no-verify/);
    // The text summary says it up front: a run whose tests never ran is not a clean pass.
    const text = await runCli(['generate', ws, '--provider', 'offline', '--no-verify', '--no-characterize']);
    assert.equal(text.stdout.split('\n')[1], '  NOT VERIFIED: the written tests were not run (verification is off (--no-verify))');
    for (const bad of [
      ['--runs', '0'],
      ['--runs', 'x'],
      ['--test-timeout', '-1'],
      ['--verify', '--no-verify'],
    ]) {
      const u = await runCli(['generate', ws, ...bad]);
      assert.equal(u.code, 2, `${bad.join(' ')}: ${u.stderr}`);
    }
  });
});

describe('verifier: bounded repair of a wrong LLM expectation', function () {
  this.timeout(120_000);
  let fake: FakeOpenAi;
  const dirs: string[] = [];
  before(async () => {
    fake = await new FakeOpenAi(goodModel).start();
  });
  after(async () => {
    await fake.stop();
    for (const d of dirs) await fsp.rm(path.dirname(d), { recursive: true, force: true });
  });

  async function addWorkspace(): Promise<string> {
    await fsp.mkdir(WORK, { recursive: true });
    const ws = path.join(await fsp.mkdtemp(path.join(WORK, 'verifier-repair-')), 'adder');
    await fsp.mkdir(ws);
    await fsp.writeFile(
      path.join(ws, 'package.json'),
      JSON.stringify({ name: 'adder', version: '1.0.0', main: 'index.js', scripts: { test: 'node --test' } }),
    );
    await fsp.writeFile(
      path.join(ws, 'index.js'),
      '/**\n * Adds two numbers.\n * @example add(2, 3) // => 5\n */\nfunction add(a, b) {\n  return a + b;\n}\nmodule.exports = { add };\n',
    );
    dirs.push(ws);
    return ws;
  }

  // The repair session sees the test as AMTP wrote it (an it() inside the file's describe) and answers in kind.
  const engineerWith = (expected: string) => ({
    content: JSON.stringify({ ...goodEngineerOutput(), tests: [{ case_id: CASE_ID, body: `assert.equal(add(2, 3), ${expected});` }] }),
  });
  // Repair sessions (coverage rounds come from the verifier too, with a `round` payload).
  const repairCalls = () =>
    fake.requests.filter((r: ReceivedRequest) => r.envelope?.from_agent === 'verifier' && 'case' in r.envelope.payload);
  const env = () => ({ OPENAI_API_KEY: 'sk-test-verifier', OPENAI_BASE_URL: fake.baseURL, AMTP_BACKOFF_SCALE: '0.001' });

  it('the engineer asserts 6 (not documented); one fresh repair session fixes it to 5 and the test is kept', async () => {
    const ws = await addWorkspace();
    fake.requests.length = 0;
    fake.script('engineer', engineerWith('6'), repairReply('5'));
    const r = await runCli(['generate', ws, '--provider', 'openai', '--yes', '--json'], env());
    assert.equal(r.code, 0, r.stderr);
    const v = parse(r.stdout).verification!;
    assert.deepEqual(
      v.results.map((x) => [x.caseId, x.outcome]),
      [[CASE_ID, 'passing']],
    );
    assert.match(v.results[0].reason!, /repaired in 1 attempt/);
    assert.deepEqual(
      v.repairs.map((x) => [x.attempt, x.outcome]),
      [[1, 'fixed']],
    );
    const calls = repairCalls();
    assert.equal(calls.length, 1);
    const req = calls[0];
    assert.equal(req.body.messages.length, 2, 'a fresh session: system prompt + envelope, no history');
    assert.equal(req.body.messages[0].role, 'system');
    assert.match(req.body.messages[0].content, /repair session for one failing test/);
    const envl = req.envelope as unknown as {
      from_agent: string;
      to_agent: string;
      payload: { test: string; error: string; file: string; case: { id: string } };
    };
    assert.equal(envl.to_agent, 'engineer');
    assert.equal(envl.payload.file, GOOD_TEST_PATH);
    assert.equal(envl.payload.case.id, CASE_ID);
    assert.ok(envl.payload.test.includes('assert.equal(add(2, 3), 6)'), envl.payload.test);
    assert.match(envl.payload.error, /5/);
    assert.match(envl.payload.error, /6/);
    const fixed = await fsp.readFile(path.join(ws, GOOD_TEST_PATH), 'utf8');
    assert.ok(fixed.includes('assert.equal(add(2, 3), 5)') && !fixed.includes('assert.equal(add(2, 3), 6)'), fixed);
  });

  it('a repair backs off on 429 and 500 like a batch, retries a reply that is not JSON, and the fourth session (fenced, streamed in pieces) fixes the test', async () => {
    const ws = await addWorkspace();
    fake.requests.length = 0;
    const fixed = repairReply('5');
    fake.script(
      'engineer',
      engineerWith('6'),
      { status: 429, headers: { 'retry-after-ms': '300' }, body: { error: { message: 'slow down', type: 'rate_limit' } } },
      { status: 500, body: { error: { message: 'upstream exploded' } } },
      { content: 'Sure! Here is the fix, let me explain first' },
      { content: `\n  ${fixed.content}  \n`, chunks: 7 },
    );
    const started = Date.now();
    const r = await runCli(['generate', ws, '--provider', 'openai', '--yes', '--json'], { ...env(), AMTP_BACKOFF_SCALE: '1' });
    assert.equal(r.code, 0, r.stderr);
    const v = parse(r.stdout).verification!;
    assert.deepEqual(
      v.results.map((x) => [x.caseId, x.outcome]),
      [[CASE_ID, 'passing']],
    );
    // One repair attempt: its four sessions are retries of the same request, not new attempts.
    assert.deepEqual(
      v.repairs.map((x) => [x.attempt, x.outcome]),
      [[1, 'fixed']],
    );
    const calls = repairCalls();
    assert.equal(calls.length, 4, 'the 429, the 500, the prose reply and the fixed one each in a new session');
    assert.ok(
      calls.every((c) => c.body.messages.length === 2 && c.body.messages[1].content === calls[0].body.messages[1].content),
      'each retry is the same two messages in a brand-new session',
    );
    assert.match(r.stderr, /repair of tc_[0-9a-f]+: rate limited .*; retrying in 300 ms/);
    assert.match(r.stderr, /repair of tc_[0-9a-f]+: server error 500 .*; retrying in 3000 ms/);
    assert.match(r.stderr, /repair of tc_[0-9a-f]+ reply is not JSON after sanitizing.*; retrying in a new session/);
    assert.ok(
      Date.now() - started >= 3300,
      'the 429 wait (Retry-After 300 ms) and the 500 back-off (1.5 s × its retry, the second) were waited',
    );
    const text = await fsp.readFile(path.join(ws, GOOD_TEST_PATH), 'utf8');
    assert.ok(text.includes('assert.equal(add(2, 3), 5)'), text);
  });

  it('a repair that stays wrong stops after 2 attempts and the test is dropped with the reason', async () => {
    const ws = await addWorkspace();
    fake.requests.length = 0;
    fake.script('engineer', engineerWith('6'), repairReply('7'), repairReply('8'));
    const r = await runCli(['generate', ws, '--provider', 'openai', '--yes', '--json'], env());
    assert.equal(r.code, 3, r.stderr);
    const s = parse(r.stdout);
    const v = s.verification!;
    assert.equal(repairCalls().length, 2, 'at most 2 repair sessions');
    assert.deepEqual(
      v.repairs.map((x) => [x.attempt, x.outcome]),
      [
        [1, 'still_failing'],
        [2, 'still_failing'],
      ],
    );
    assert.equal(v.results[0].outcome, 'dropped');
    assert.match(v.results[0].reason!, /still failing after 2 repair attempt/);
    // the second session carries the first attempt and its error
    const second = repairCalls()[1].envelope as unknown as { payload: { attempt: number; previous: { test: string }[] } };
    assert.equal(second.payload.attempt, 2);
    assert.ok(second.payload.previous[0].test.includes('7'));
    assert.equal(existsSync(path.join(ws, GOOD_TEST_PATH)), false, 'a file left with no test is removed');
    assert.equal(s.status, 'needs_review', 'a dropped P0 case is unmet, whatever its reason');
    assert.deepEqual(
      v.unmet.map((u) => u.caseId),
      [CASE_ID],
    );
    assert.match(v.unmet[0].reason!, /^dropped: still failing after 2 repair attempt/);
    fake.requests.length = 0;
  });
});
