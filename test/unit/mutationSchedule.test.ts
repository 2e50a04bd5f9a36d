// Which tests run against which mutant, the budget, and each mutant's status and the score
// (server/src/mutation/rounds.ts, schedule.ts, outcome.ts, score.ts). The backend here is a table of
// what each invocation reports; the real runners are driven in test/integration/mutationRealRuns.test.ts.
import { strict as assert } from 'node:assert';
import { mutantResults } from '../../server/src/mutation/outcome';
import { planMutants, widenStatics, type CoverageRound, type PlannedMutant } from '../../server/src/mutation/rounds';
import { schedule, type Backend, type BatchRun } from '../../server/src/mutation/schedule';
import { addKills, countMutants, mutationRecord, mutationScore } from '../../server/src/mutation/score';
import type { Mutant } from '../../server/src/mutation/types';

function coverage(perTest: Record<string, Record<string, number>>, staticIds: string[] = []): CoverageRound {
  return {
    perTest: new Map(Object.entries(perTest).map(([t, m]) => [t, new Map(Object.entries(m))])),
    staticIds: new Set(staticIds),
    ms: new Map(Object.keys(perTest).map((t) => [t, 2])),
    usable: new Set(Object.keys(perTest)),
    wallMs: 500,
  };
}

const mutant = (id: string, file = 'src/a.js'): Mutant => ({
  id,
  file,
  mutator: 'ArithmeticOperator',
  original: 'a + b',
  replacement: 'a - b',
  start: { line: 1, column: 1 },
  end: { line: 1, column: 6 },
});

/** Kills a mutant whenever one of its tests is in `killers`; `hangs` hang their invocation. */
function backend(killers: Record<string, string[]>, hangs: string[] = [], log: string[][] = []): Backend {
  const run = async (batch: PlannedMutant[]): Promise<BatchRun> => {
    log.push(batch.map((m) => m.id));
    const hung = batch.find((m) => hangs.includes(m.id));
    if (hung) return { results: [], timedOut: true, hung: [hung.id], elapsedMs: 100 };
    const results = batch.flatMap((m) =>
      m.tests.map((test) => ({
        mutant: m.id,
        test,
        outcome: (killers[m.id] ?? []).includes(test) ? ('killed' as const) : ('survived' as const),
      })),
    );
    return { results, timedOut: false, elapsedMs: 100 };
  };
  return { runBatch: run, runStatic: (m) => run([m]) };
}

describe('mutation rounds, budget and score', () => {
  it('runs each mutant only against the tests that reach it, and a mutant no test reaches is no_coverage', async () => {
    const cov = coverage({ tc_1: { '1': 3, '2': 1 }, tc_2: { '2': 1 } });
    const { planned, noCoverage } = planMutants(['1', '2', '3'], cov);
    assert.deepEqual(
      planned.map((p) => [p.id, p.tests]),
      [
        ['1', ['tc_1']],
        ['2', ['tc_1', 'tc_2']],
      ],
    );
    assert.deepEqual(noCoverage, ['3']);
    assert.equal(planned[0].hitLimit, 10_000, 'at least the minimum hit limit');
    const run = await schedule(backend({ '2': ['tc_2'] }), planned, {
      deadline: Date.now() + 60_000,
      startupMs: 100,
      perTestMs: 1,
      invocationTimeoutMs: 60_000,
    });
    const results = mutantResults(
      ['1', '2', '3'].map((id) => mutant(id)),
      planned,
      noCoverage,
      run,
    );
    assert.deepEqual(
      results.map((r) => [r.id, r.status, r.killedBy]),
      [
        ['1', 'survived', []],
        ['2', 'killed', ['tc_2']],
        ['3', 'no_coverage', []],
      ],
    );
    // killed / (killed + survived + no coverage)
    assert.equal(mutationScore(countMutants(results)), 33.3);
  });

  it('a hung mutant is a timeout (killed), and the rest of its batch runs again without it', async () => {
    const cov = coverage({ tc_1: { '1': 1, '2': 1, '3': 1 } });
    const { planned } = planMutants(['1', '2', '3'], cov);
    const log: string[][] = [];
    const run = await schedule(backend({ '3': ['tc_1'] }, ['2'], log), planned, {
      deadline: Date.now() + 60_000,
      startupMs: 100,
      perTestMs: 1,
      invocationTimeoutMs: 60_000,
    });
    assert.deepEqual(log, [
      ['1', '2', '3'],
      ['1', '3'],
    ]);
    const results = mutantResults(
      ['1', '2', '3'].map((id) => mutant(id)),
      planned,
      [],
      run,
    );
    assert.deepEqual(
      results.map((r) => r.status),
      ['survived', 'timeout', 'killed'],
    );
    assert.deepEqual(results[1].killedBy, ['tc_1']);
  });

  it('what the budget does not reach is not_run with the reason, and stays out of the score', async () => {
    const cov = coverage({ tc_1: { '1': 1, '2': 1 } }, ['2']);
    const { planned } = planMutants(['1', '2'], cov);
    assert.equal(planned[1].static, true);
    // No time left for a static mutant's own process once the in-process batch ran.
    let t = 0;
    const now = () => t;
    const b = backend({ '1': ['tc_1'] });
    const timed: Backend = { runBatch: async (x, ms) => ((t += 900), b.runBatch(x, ms)), runStatic: b.runStatic };
    const run = await schedule(timed, planned, { deadline: 1000, startupMs: 200, perTestMs: 1, invocationTimeoutMs: 60_000, now });
    const results = mutantResults([mutant('1'), mutant('2')], planned, [], run);
    assert.deepEqual(
      results.map((r) => r.status),
      ['killed', 'not_run'],
    );
    assert.match(results[1].reason!, /runs while the module loads/);
    const record = mutationRecord(
      {
        tool: 't',
        mutants: results,
        files: ['src/a.js'],
        failedFiles: [],
        excludedTests: [],
        executions: 2,
        elapsedMs: 1000,
        budgetMs: 1000,
      },
      1,
    );
    assert.equal(record.score, 100);
    assert.deepEqual(record.notRun, [{ file: 'src/a.js', mutants: 1, reason: results[1].reason }]);
    assert.deepEqual(record.kills, { tc_1: ['1'] });
  });

  it('a budget too small for any batch leaves every mutant not run for the budget', async () => {
    const { planned } = planMutants(['1'], coverage({ tc_1: { '1': 1 } }));
    const run = await schedule(backend({}), planned, { deadline: Date.now() - 1, startupMs: 100, perTestMs: 1, invocationTimeoutMs: 1000 });
    assert.equal(run.invocations, 0);
    assert.equal(run.notRun.get('1'), 'budget');
  });

  it('a static mutant runs with every usable test, not only those that reached it while loading, and costs their time', () => {
    const cov = coverage({ tc_1: { '1': 1 }, tc_2: {}, tc_3: { '2': 1 } }, ['2']);
    cov.ms.set('tc_2', 40);
    const { planned } = planMutants(['1', '2'], cov);
    widenStatics(planned, cov);
    assert.deepEqual(
      planned.map((p) => [p.id, p.tests, p.costMs]),
      [
        ['1', ['tc_1'], planned[0].costMs],
        ['2', ['tc_1', 'tc_2', 'tc_3'], 44],
      ],
    );
  });

  it('a later test that kills survivors moves them to killed in the run, its file and its kills', () => {
    const results = mutantResults(
      [mutant('1'), mutant('2'), mutant('3', 'src/b.js')],
      planMutants(['1', '2'], coverage({ tc_1: { '1': 1, '2': 1 } })).planned,
      ['3'],
      {
        results: [
          { mutant: '1', test: 'tc_1', outcome: 'killed' },
          { mutant: '2', test: 'tc_1', outcome: 'survived' },
        ],
        hung: [],
        notRun: new Map(),
        invocations: 1,
      },
    );
    const record = mutationRecord(
      {
        tool: 't',
        mutants: results,
        files: ['src/a.js', 'src/b.js'],
        failedFiles: [],
        excludedTests: [],
        executions: 2,
        elapsedMs: 10,
        budgetMs: 1000,
      },
      1,
    );
    assert.equal(record.score, 33.3);
    addKills(record, 'tc_9', ['2', '3', 'unknown']);
    assert.equal(record.score, 100);
    assert.deepEqual([record.counts.killed, record.counts.survived, record.counts.noCoverage], [3, 0, 0]);
    assert.deepEqual(
      record.files.map((f) => [f.file, f.score]),
      [
        ['src/a.js', 100],
        ['src/b.js', 100],
      ],
    );
    assert.deepEqual(record.survivors, []);
    assert.deepEqual(record.kills, { tc_1: ['1'], tc_9: ['2', '3'] });
  });

  it('a batch the budget stops keeps what its tests finished; the rest is not run, never a timeout, and no invocation outlives the budget', async () => {
    const { planned } = planMutants(['1', '2', '3'], coverage({ tc_1: { '1': 1, '2': 1, '3': 1 }, tc_2: { '1': 1, '2': 1, '3': 1 } }));
    let t = 0;
    const limits: number[] = [];
    const stopped: Backend = {
      // Killed at its limit after mutant 1 finished both tests and mutant 2 one of its two.
      runBatch: async (_b, ms) => {
        limits.push(ms);
        t += ms;
        return {
          results: [
            { mutant: '1', test: 'tc_1', outcome: 'survived' },
            { mutant: '1', test: 'tc_2', outcome: 'killed' },
            { mutant: '2', test: 'tc_1', outcome: 'survived' },
          ],
          timedOut: true,
          hung: ['2'],
          elapsedMs: ms,
        };
      },
      runStatic: () => Promise.reject(new Error('no static mutant here')),
    };
    const run = await schedule(stopped, planned, {
      deadline: 4000,
      startupMs: 100,
      perTestMs: 1,
      invocationTimeoutMs: 120_000,
      now: () => t,
    });
    assert.deepEqual(limits, [4000], 'one invocation, limited to what was left of the budget');
    const results = mutantResults([mutant('1'), mutant('2'), mutant('3')], planned, [], run);
    assert.deepEqual(
      results.map((r) => [r.id, r.status, r.killedBy]),
      [
        ['1', 'killed', ['tc_2']],
        ['2', 'not_run', []],
        ['3', 'not_run', []],
      ],
    );
  });

  it('a batch the stall watch stops keeps what finished: the hung mutant is a timeout, the unfinished rest runs again', async () => {
    const { planned } = planMutants(['1', '2', '3'], coverage({ tc_1: { '1': 1, '2': 1, '3': 1 } }));
    const log: string[][] = [];
    const b: Backend = {
      runBatch: async (batch) => {
        log.push(batch.map((m) => m.id));
        if (batch.length === 3)
          return {
            results: [{ mutant: '1', test: 'tc_1', outcome: 'survived' }],
            timedOut: true,
            stalled: true,
            hung: ['2'],
            elapsedMs: 50,
          };
        return { results: batch.map((m) => ({ mutant: m.id, test: 'tc_1', outcome: 'killed' as const })), timedOut: false, elapsedMs: 50 };
      },
      runStatic: () => Promise.reject(new Error('no static mutant here')),
    };
    const run = await schedule(b, planned, { deadline: Date.now() + 60_000, startupMs: 10, perTestMs: 1, invocationTimeoutMs: 60_000 });
    assert.deepEqual(log, [['1', '2', '3'], ['3']]);
    const results = mutantResults([mutant('1'), mutant('2'), mutant('3')], planned, [], run);
    assert.deepEqual(
      results.map((r) => r.status),
      ['survived', 'timeout', 'killed'],
    );
  });
});
