// Real mutation runs (server/src/mutation): the fixture's module with known mutants
// (test/fixtures/mutation-js/README.md, test/fixtures/mutation-py/mutcalc/calc.py) under the real
// runners of this repository, each driven in one process per batch. The same mutants get the same
// verdicts under every framework: killed by exactly the tests that notice them, a boundary that only
// one test checks, a static mutant (read while the module loads), an endless loop stopped by the hit
// limit, code no test reaches, and the noise left out.
import { strict as assert } from 'node:assert';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Framework } from '../../server/src/core/frameworks';
import { runMutation, type MutantResult, type MutationOutcome } from '../../server/src/mutation';
import { requirePytest } from '../helpers/python';

const REPO = resolve(__dirname, '../..');
// Under the repo, so the written tests resolve the runners from its node_modules like a real project.
const WORK = join(REPO, 'test-output');
const IDS = ['tc_a00000000001', 'tc_a00000000002', 'tc_a00000000003', 'tc_a00000000004', 'tc_a00000000005'];

const JS: [Framework, string][] = [
  ['mocha', 'tests/mocha.amtp.test.js'],
  ['node-test', 'tests/node.amtp.test.js'],
  ['jest', 'tests/jest.amtp.test.js'],
  ['vitest', 'tests/vitest.amtp.test.mjs'],
  ['ava', 'tests/ava.amtp.test.js'],
  ['node-tap', 'tests/tap.amtp.test.js'],
];

function copy(fixture: string): string {
  mkdirSync(WORK, { recursive: true });
  const dir = mkdtempSync(join(WORK, 'mutation-'));
  cpSync(join(REPO, 'test/fixtures', fixture), dir, { recursive: true });
  return dir;
}

function find(o: MutationOutcome, replacement: string, line?: number): MutantResult {
  const m = o.mutants.find((x) => x.replacement === replacement && (line === undefined || x.start.line === line));
  assert.ok(m, `a mutant ${replacement} in ${JSON.stringify(o.mutants.map((x) => x.replacement))}`);
  return m;
}

describe('mutation: real runs under every framework', function () {
  this.timeout(300_000);
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  for (const [framework, file] of JS) {
    it(`${framework}: kills, survivors, a static mutant and an endless loop, in a few runner processes`, async () => {
      const ws = copy('mutation-js');
      dirs.push(ws);
      const o = await runMutation({
        workspace: ws,
        plan: { framework, binDir: REPO, args: [], env: {} },
        tests: IDS.map((caseId) => ({ caseId, file, target: 'src/calc.js' })),
        targets: ['src/calc.js'],
        budgetMs: 240_000,
        timeoutMs: 120_000,
      });
      assert.equal(o.skipped, undefined, o.skipped);
      assert.deepEqual(o.excludedTests, []);
      // the boundary: only isAdult(18) notices `>` for `>=`
      assert.deepEqual([find(o, 'age > 18').status, find(o, 'age > 18').killedBy], ['killed', ['tc_a00000000003']]);
      assert.deepEqual(find(o, 'age < 18').killedBy, IDS.slice(0, 3));
      // a static mutant: SEP is read when the module loads; join notices it
      const sep = find(o, '""', 4);
      assert.equal(sep.static, true);
      assert.deepEqual([sep.status, sep.killedBy], ['killed', ['tc_a00000000004']]);
      // n++ for n--: countDown loops for ever, until the hit limit makes its test fail
      const loop = find(o, 'n++');
      assert.ok(['timeout', 'killed'].includes(loop.status), loop.status);
      assert.deepEqual(loop.killedBy, ['tc_a00000000005']);
      // describeAge: no test calls it
      assert.equal(find(o, 'age >= 0').status, 'no_coverage');
      assert.ok(o.mutants.filter((m) => m.start.line === 25).every((m) => m.status === 'filtered' && m.reason === 'in a logging call'));
      assert.equal(find(o, '""', 24).status, 'filtered');
      assert.ok(
        !o.mutants.some((m) => m.status === 'error' || m.status === 'not_run'),
        JSON.stringify(o.mutants.filter((m) => m.status === 'error')),
      );
      // one coverage round and one batch; a static mutant of an ES module test file needs a process of its own
      const ownProcess = framework === 'vitest' ? o.mutants.filter((m) => m.static).length : 0;
      assert.equal(o.executions, 2 + ownProcess, `${o.executions} runner invocations`);
    });
  }

  it('mocha: a file whose mutants ran before, with nothing that decides them changed, is not mutated again (mutation/cache.ts)', async () => {
    const ws = copy('mutation-js');
    dirs.push(ws);
    const file = 'tests/mocha.amtp.test.js';
    const log: string[] = [];
    const run = (budgetSeconds = 240) =>
      runMutation({
        info: (m) => log.push(m),
        workspace: ws,
        plan: { framework: 'mocha', binDir: REPO, args: [], env: {} },
        tests: IDS.map((caseId) => ({ caseId, file, target: 'src/calc.js' })),
        targets: ['src/calc.js'],
        budgetMs: 240_000,
        timeoutMs: 120_000,
        cache: { sources: ['src/calc.js'], budgetSeconds },
      });
    const outcomes = (o: MutationOutcome) => o.mutants.map((m) => [m.replacement, m.start.line, m.status, m.killedBy.join(',')].join(' '));
    const first = await run();
    assert.ok(first.executions >= 2, `${first.executions}`);
    const again = await run();
    assert.equal(again.executions, 1, 'only the coverage round: no mutant is run again');
    assert.deepEqual(outcomes(again), outcomes(first));
    // a test whose text changed runs again, against the mutants no unchanged test kills, and alone
    const tests = join(ws, file);
    writeFileSync(
      tests,
      readFileSync(tests, 'utf8').replace('assert.equal(isAdult(18), true)', "assert.equal(isAdult(18), true, 'the boundary')"),
    );
    log.length = 0;
    const edited = await run();
    assert.equal(edited.executions, 2, 'the coverage round and one batch');
    // the same verdicts; a mutant an unchanged test kills is not run again to see whether the edited one kills it too
    assert.deepEqual(
      edited.mutants.map((m) => m.status),
      first.mutants.map((m) => m.status),
    );
    edited.mutants.forEach((m, i) => {
      assert.ok(
        m.killedBy.every((t) => first.mutants[i].killedBy.includes(t)),
        `${m.replacement}: ${m.killedBy}`,
      );
      if (m.status === 'killed') assert.ok(m.killedBy.length > 0);
    });
    assert.deepEqual(find(edited, 'age > 18').killedBy, ['tc_a00000000003'], 'the mutant only the edited test kills: run against it again');
    const line = log.find((l) => /known from earlier runs/.test(l)) ?? '';
    const [, fromCache, newTo] = /(\d+) mutant\(s\) known from earlier runs; (\d+) run only/.exec(line) ?? [];
    assert.ok(Number(newTo) >= 1 && Number(newTo) < Number(fromCache), line);
    // an entry changed by anyone but this person's AMTP (a repository shipping one) is not read
    const dir = join(ws, '.amtp/cache/mutation');
    for (const f of readdirSync(dir)) {
      const entry = JSON.parse(readFileSync(join(dir, f), 'utf8')) as { mutants: { outcomes: Record<string, string> }[] };
      for (const m of entry.mutants) for (const k of Object.keys(m.outcomes)) m.outcomes[k] = 'survived';
      writeFileSync(join(dir, f), JSON.stringify(entry));
    }
    const planted = await run();
    assert.ok(planted.executions >= 2, 'its mutants ran again');
    assert.deepEqual(outcomes(planted), outcomes(first));
    // another budget asked for, or a change to the module, runs its mutants again
    assert.ok((await run(200)).executions >= 2);
    const calc = join(ws, 'src/calc.js');
    writeFileSync(calc, `${readFileSync(calc, 'utf8')}\n// a change\n`);
    const changed = await run();
    assert.ok(changed.executions >= 2);
    assert.deepEqual(outcomes(changed), outcomes(first));
  });

  it('pytest: the same verdicts with the ast operators, the plugin and one process per batch', async () => {
    const python = requirePytest();
    const ws = copy('mutation-py');
    dirs.push(ws);
    const o = await runMutation({
      workspace: ws,
      plan: { framework: 'pytest', binDir: REPO, args: [], env: {}, python },
      tests: IDS.map((caseId) => ({ caseId, file: 'tests/test_calc_amtp.py', target: 'mutcalc/calc.py' })),
      targets: ['mutcalc/calc.py'],
      budgetMs: 240_000,
      timeoutMs: 120_000,
    });
    assert.equal(o.skipped, undefined, o.skipped);
    assert.deepEqual([find(o, 'age > 18').status, find(o, 'age > 18').killedBy], ['killed', ['tc_a00000000003']]);
    assert.deepEqual(find(o, 'age < 18').killedBy, IDS.slice(0, 3));
    const sep = find(o, "''", 4);
    assert.deepEqual([sep.static, sep.status, sep.killedBy], [true, 'killed', ['tc_a00000000004']]);
    const loop = find(o, 'n += 1');
    assert.deepEqual([loop.status, loop.killedBy], ['timeout', ['tc_a00000000005']]);
    assert.equal(find(o, 'age >= 0').status, 'no_coverage');
    assert.equal(find(o, "''", 25).status, 'filtered');
    assert.ok(o.mutants.filter((m) => m.start.line === 26).every((m) => m.status === 'filtered'));
    // one coverage round, one batch, one process for the static mutant
    assert.equal(o.executions, 3);
  });
});
