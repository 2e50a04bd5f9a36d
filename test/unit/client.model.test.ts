import { strict as assert } from 'node:assert';
import type * as P from '../../server/src/protocol';
import { describeCase, describeRun, groupByTarget, RunsModel, verificationLines } from '../../client/src/model/runsModel';
import { toServerSettings } from '../../client/src/model/settings';

function kase(id: string, over: Partial<P.CaseView> = {}): P.CaseView {
  return {
    id,
    title: `case ${id}`,
    priority: 'P1',
    kind: 'example',
    target: { file: 'src/a.js', symbol: 'a' },
    status: 'written',
    testFile: 'test/a.amtp.test.js',
    testLine: 3,
    ...over,
  };
}

function run(runId: string, cases: P.CaseView[], over: Partial<P.RunView> = {}): P.RunView {
  return {
    runId,
    status: 'completed',
    stage: 'done',
    createdAt: `2026-01-01T00:00:0${runId.slice(-1)}Z`,
    params: { depth: 'standard', framework: 'auto', provider: 'offline' },
    activities: [],
    cases,
    files: [],
    pendingApprovals: [],
    testCommand: 'node --test test/',
    ...over,
  };
}

describe('client RunsModel (Test Cases tree)', () => {
  it('groups cases by target file, sorted, and each group by priority then title', () => {
    const groups = groupByTarget([
      kase('tc_000000000003', { target: { file: 'src/b.js', symbol: 'b' }, priority: 'P2' }),
      kase('tc_000000000001', { priority: 'P1', title: 'zeta' }),
      kase('tc_000000000002', { priority: 'P0', title: 'omega' }),
      kase('tc_000000000004', { priority: 'P1', title: 'alpha' }),
    ]);
    assert.deepEqual(
      groups.map(([f, cs]) => [f, cs.map((c) => c.id)]),
      [
        ['src/a.js', ['tc_000000000002', 'tc_000000000004', 'tc_000000000001']],
        ['src/b.js', ['tc_000000000003']],
      ],
    );
  });

  it('lists runs newest first and builds run → file → case nodes', () => {
    const m = new RunsModel();
    let changes = 0;
    m.onDidChange(() => changes++);
    m.upsert(run('r_1', [kase('tc_000000000001')]));
    m.upsert(run('r_2', [kase('tc_000000000002', { target: { file: 'src/z.js', symbol: 'z' } })]));
    assert.equal(changes, 2);
    const roots = m.roots();
    assert.deepEqual(
      roots.map((r) => r.runId),
      ['r_2', 'r_1'],
    );
    const files = m.children(roots[1]);
    assert.equal(files.length, 1);
    assert.equal(files[0].kind === 'file' && files[0].file, 'src/a.js');
    const cases = m.children(files[0]);
    assert.equal(cases[0].kind === 'case' && cases[0].case.id, 'tc_000000000001');
    assert.deepEqual(m.children(cases[0]), []);
  });

  it('an upsert replaces the run (the server view wins), active() prefers a running run', () => {
    const m = new RunsModel();
    m.upsert(run('r_1', [], { status: 'running', stage: 'generator' }));
    m.upsert(run('r_2', []));
    assert.equal(m.active()?.runId, 'r_1');
    m.upsert(run('r_1', [kase('tc_000000000001')], { status: 'completed' }));
    assert.equal(m.get('r_1')?.cases.length, 1);
    assert.equal(m.active()?.runId, 'r_2');
  });

  it('test results mark written cases passing/failing, survive later upserts, never touch not_written cases', () => {
    const m = new RunsModel();
    m.upsert(
      run('r_1', [
        kase('tc_000000000001'),
        kase('tc_000000000002'),
        kase('tc_000000000003', { status: 'not_written', reason: 'no oracle' }),
      ]),
    );
    m.applyResults(
      'r_1',
      new Map([
        ['tc_000000000001', 'passing'],
        ['tc_000000000002', 'failing'],
        ['tc_000000000003', 'passing'],
        ['tc_ffffffffffff', 'passing'],
      ]),
    );
    const statuses = () => m.get('r_1')!.cases.map((c) => c.status);
    assert.deepEqual(statuses(), ['passing', 'failing', 'not_written']);
    m.upsert(run('r_1', [kase('tc_000000000001'), kase('tc_000000000002'), kase('tc_000000000003', { status: 'not_written' })]));
    assert.deepEqual(statuses(), ['passing', 'failing', 'not_written']);
  });

  it('describes runs and cases for the tree', () => {
    assert.equal(
      describeRun(run('r_1', [kase('tc_000000000001'), kase('tc_000000000002', { status: 'not_written' })])),
      'completed · 1 test kept in 1 file · 1 not written (2 planned)',
    );
    assert.equal(
      describeRun(run('r_1', [kase('tc_000000000001')], { status: 'running', stage: 'engineer' })),
      'engineer · running · 1 planned',
    );
    assert.equal(
      describeCase(kase('tc_000000000001', { status: 'not_written', reason: 'no documented result' })),
      'P1 · not written — no documented result',
    );
  });
});

describe('client verificationLines (the run tooltip)', () => {
  it('says the coverage over all product files, the files no test reaches, the loader and the documentation issues', () => {
    const r = run('r_1', [], {
      verification: {
        status: 'done',
        runs: 3,
        filters: [],
        quarantineFiles: [],
        unmet: [],
        loaderNote: 'the project has no TypeScript loader: … needs tsx',
        coverage: { statements: 32.4, branches: 50, productFiles: 3, untestedFiles: ['lib/format.js'] },
        docIssues: [
          {
            caseId: 'tc_000000000001',
            symbol: 'first',
            file: 'index.js',
            call: 'first(null)',
            documented: 'undefined',
            error: 'TypeError: x',
          },
        ],
      },
    });
    assert.deepEqual(verificationLines(r), [
      'coverage: statements 32.4%, branches 50% over 3 product file(s)',
      '1 product file(s) have no test at all: lib/format.js',
      'loader: the project has no TypeScript loader: … needs tsx',
      'documentation issues: first(null) throws TypeError: x',
    ]);
    assert.deepEqual(verificationLines(run('r_2', [])), []);
  });
});

describe('client toServerSettings (amtp.* → ServerSettings)', () => {
  const from = (cfg: Record<string, unknown>) => toServerSettings((k) => cfg[k]);

  it('defaults to the offline provider with nothing else set', () => {
    assert.deepEqual(from({}), { provider: 'offline' });
  });

  it('maps every setting, clamps temperature to 0.2 and drops invalid values', () => {
    assert.deepEqual(
      from({
        provider: 'openai',
        baseURL: ' http://127.0.0.1:1234/v1 ',
        model: 'gpt-x',
        'models.crawler': 'small',
        'models.generator': '',
        temperature: 0.9,
        seed: 42.7,
        defaultFramework: 'vitest',
        defaultDepth: 'deep',
        riskOverrides: { 'tests.run': 'medium', bogus: 'extreme' },
        approvalTimeoutSeconds: 30,
        record: true,
      }),
      {
        provider: 'openai',
        baseURL: 'http://127.0.0.1:1234/v1',
        model: 'gpt-x',
        models: { crawler: 'small' },
        temperature: 0.2,
        seed: 42,
        defaultFramework: 'vitest',
        defaultDepth: 'deep',
        riskOverrides: { 'tests.run': 'medium' },
        approvalTimeoutSeconds: 30,
        record: true,
      },
    );
    assert.deepEqual(
      from({ provider: 'anthropic', defaultFramework: 'jasmine', defaultDepth: 'x', temperature: -1, approvalTimeoutSeconds: 0 }),
      { provider: 'offline', temperature: 0 },
    );
  });
});
