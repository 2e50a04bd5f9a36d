// The Testing view keeps every written test of a file when a later, scoped run (CodeLens on one
// function) writes into it: the earlier run's tests stay listed, the newer run's state wins per case.
import { strict as assert } from 'node:assert';
import type * as P from '../../server/src/protocol';
import { testsByFile } from '../../client/src/model/testFiles';

function kase(id: string, status: P.CaseStatus, testLine: number, testFile = 'test/lib.amtp.test.js'): P.CaseView {
  return {
    id,
    title: `title of ${id}`,
    priority: 'P1',
    kind: 'example',
    target: { file: 'lib.js', symbol: 'f' },
    status,
    testFile,
    testLine,
  };
}

function run(runId: string, createdAt: string, cases: P.CaseView[]): P.RunView {
  return {
    runId,
    status: 'completed',
    stage: 'done',
    createdAt,
    params: { depth: 'standard', framework: 'auto', provider: 'offline' },
    activities: [],
    cases,
    files: [],
    pendingApprovals: [],
  };
}

const listed = (runs: P.RunView[]) =>
  testsByFile(runs).map(([file, tests]) => [file, tests.map((t) => `${t.runId}:${t.case.id}:${t.case.testLine}`)]);

describe('client: the Testing view lists every written test of a file, across runs', () => {
  const workspace = run('r_1', '2026-01-01T09:00:00Z', [
    kase('tc_a', 'passing', 4),
    kase('tc_b', 'passing', 8),
    kase('tc_c', 'passing', 12),
    kase('tc_d', 'dropped', 16),
    kase('tc_o', 'passing', 3, 'test/other.amtp.test.js'),
  ]);
  // CodeLens on one function: it rewrote tc_b (now further down) and added tc_e; the file still holds tc_a and tc_c.
  const scoped = run('r_2', '2026-01-01T10:00:00Z', [kase('tc_b', 'failing', 14), kase('tc_e', 'passing', 18), kase('tc_f', 'planned', 0)]);

  it('after a scoped run, the earlier tests of the file keep their items; the newer run owns the cases it wrote', () => {
    // the model lists newest first; the order given must not matter
    assert.deepEqual(listed([scoped, workspace]), [
      ['test/lib.amtp.test.js', ['r_1:tc_a:4', 'r_1:tc_c:12', 'r_2:tc_b:14', 'r_2:tc_e:18']],
      ['test/other.amtp.test.js', ['r_1:tc_o:3']],
    ]);
    assert.deepEqual(listed([workspace, scoped]), listed([scoped, workspace]));
  });

  it('what the file holds decides: a test a later write took out is not listed, and each test is at the line its id is on', () => {
    // a run whose record still names tc_a and tc_e, but whose file was put back without them
    const file = "const assert = require('node:assert');\n\nit('tc_c: x', () => {});\nit('tc_b: y', () => {});\n";
    const read = (f: string) => (f === 'test/lib.amtp.test.js' ? file : undefined);
    assert.deepEqual(
      testsByFile([workspace, scoped], read).map(([f, tests]) => [f, tests.map((t) => `${t.runId}:${t.case.id}:${t.case.testLine}`)]),
      [
        ['test/lib.amtp.test.js', ['r_1:tc_c:2', 'r_2:tc_b:3']],
        ['test/other.amtp.test.js', ['r_1:tc_o:3']],
      ],
    );
    assert.deepEqual(
      testsByFile([workspace], () => ''),
      [],
      'an empty file lists nothing',
    );
  });

  it('a newer run that dropped a test removes it from the list', () => {
    const dropping = run('r_3', '2026-01-01T11:00:00Z', [kase('tc_a', 'dropped', 4)]);
    assert.deepEqual(listed([workspace, scoped, dropping])[0], ['test/lib.amtp.test.js', ['r_1:tc_c:12', 'r_2:tc_b:14', 'r_2:tc_e:18']]);
  });
});
