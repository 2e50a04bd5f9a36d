// The toast, the status bar and the Test Cases tree count what a run left on disk: tests kept in
// files, apart from quarantined, dropped, not written and planned cases (issue 27: "214 cases,
// 48 file(s)" was shown for 102 tests in 31 files).
import { strict as assert } from 'node:assert';
import type * as P from '../../server/src/protocol';
import { groupByTarget, RunsModel } from '../../client/src/model/runsModel';
import { describeTally, outcomeLine, runLabel, runTally } from '../../client/src/model/runTally';

function kase(n: number, status: P.CaseStatus, testFile?: string, priority: P.CaseView['priority'] = 'P1'): P.CaseView {
  return {
    id: `tc_${String(n).padStart(12, '0')}`,
    title: `case ${n}`,
    priority,
    kind: 'example',
    target: { file: 'src/a.js', symbol: 'a' },
    status,
    ...(testFile ? { testFile, testLine: n } : {}),
  };
}

function run(cases: P.CaseView[], over: Partial<P.RunView> = {}): P.RunView {
  return {
    runId: 'r_20260101T093000_abc',
    status: 'completed',
    stage: 'done',
    createdAt: '2026-01-01T09:30:00.000Z',
    params: { depth: 'standard', framework: 'auto', provider: 'offline' },
    activities: [],
    cases,
    files: [],
    pendingApprovals: [],
    ...over,
  };
}

const mixed = [
  kase(1, 'passing', 'test/a.amtp.test.js'),
  kase(2, 'written', 'test/a.amtp.test.js'),
  kase(3, 'passing', 'test/b.amtp.test.js'),
  kase(4, 'dropped', 'test/c.amtp.test.js'),
  kase(5, 'quarantined', 'test/a.amtp.quarantine.test.js'),
  kase(6, 'not_written'),
  kase(7, 'dropped', 'test/a.amtp.test.js', 'P0'),
];

describe('client: what a run kept, counted apart from what it dropped', () => {
  it('counts kept tests and the files that hold them, and every other status apart', () => {
    assert.deepEqual(runTally(run(mixed)), { kept: 3, keptFiles: 2, quarantined: 1, dropped: 2, notWritten: 1, planned: 7 });
    assert.equal(describeTally(runTally(run(mixed))), '3 tests kept in 2 files · 1 quarantined · 2 dropped · 1 not written (7 planned)');
    assert.equal(describeTally(runTally(run([kase(1, 'passing', 'test/a.test.js')]))), '1 test kept in 1 file (1 planned)');
  });

  it("a finished run's message is one line: the counts and the reason's first sentence", () => {
    const reason =
      'verification dropped 2 tests that add no coverage. Each is listed in the run record with its step and output:\nline two';
    const line = outcomeLine(run(mixed, { status: 'completed', reason }));
    assert.equal(
      line,
      'AMTP run completed: 3 tests kept in 2 files · 1 quarantined · 2 dropped · 1 not written (7 planned) — verification dropped 2 tests that add no coverage.',
    );
    assert.ok(!line.includes('\n'));
    assert.equal(outcomeLine(run([], { status: 'awaiting_approval' })), 'AMTP run awaiting approval: no cases planned');
  });

  it('labels a run by its scope and time, not by depth, framework and id', () => {
    assert.equal(runLabel(run([])), 'workspace · 2026-01-01 09:30 UTC');
    const scoped = run([], { params: { depth: 'standard', framework: 'auto', provider: 'offline', scope: '--only src/a.js#f' } });
    assert.equal(runLabel(scoped), '--only src/a.js#f · 2026-01-01 09:30 UTC');
  });

  it('the tree lists kept tests first, and its filter shows kept, quarantined or dropped cases only', () => {
    const [[, ordered]] = groupByTarget(mixed);
    assert.deepEqual(
      ordered.map((c) => c.status),
      ['passing', 'written', 'passing', 'quarantined', 'dropped', 'dropped', 'not_written'],
    );
    // the P0 dropped case comes after every kept one, although it has the higher priority
    assert.equal(ordered[4].priority, 'P0');
    const m = new RunsModel();
    m.upsert(run(mixed));
    const shown = () => m.children(m.roots()[0]).flatMap((f) => m.children(f).map((n) => (n.kind === 'case' ? n.case.id : '')));
    assert.equal(shown().length, 7);
    m.setFilter('kept');
    assert.deepEqual(shown(), ['tc_000000000001', 'tc_000000000002', 'tc_000000000003']);
    m.setFilter('quarantined');
    assert.deepEqual(shown(), ['tc_000000000005']);
    m.setFilter('dropped');
    assert.deepEqual(shown(), ['tc_000000000007', 'tc_000000000004', 'tc_000000000006']);
  });
});
