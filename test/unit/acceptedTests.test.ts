import { strict as assert } from 'node:assert';
import { holdAccepted } from '../../server/src/verifier/acceptedTests';
import type { TestFileState, VerifyState } from '../../server/src/verifier/state';

const A = 'tc_0000000000a1';
const B = 'tc_0000000000a2';
const C = 'tc_0000000000a3';
const D = 'tc_0000000000a4';
const file: TestFileState = { path: 'test/x.amtp.test.js', content: '', ids: [A, B, C, D] };

/** Just what holdAccepted reads: the run's id, the judge's lists and the run phase's verdicts. */
function state(accepted: string[]): VerifyState {
  return {
    ctx: { run: () => ({ id: 'r_1' }) },
    accepted: new Set(accepted),
    names: new Map([[A, 'a works']]),
    results: new Map([[C, { caseId: C, outcome: 'flaky', step: 'passes_every_run', reason: 'flaky: passed 2 of 3 runs' }]]),
    failing: new Map([
      [A, { file, message: 'AssertionError', reported: { expected: "'x'", actual: "'y'" } }],
      [B, { file, message: 'AssertionError: other' }],
    ]),
    loadFailures: [{ file, ids: [D], message: "SyntaxError: Unexpected token ')'" }],
  } as unknown as VerifyState;
}

const tail = (id: string) => `. Reject it with \`amtp review r_1 --reject ${id}\`, or let a run change it with an approved overwrite`;

describe('accepted tests the run wrote again as they were never reach the judge', () => {
  it('failing, not loading or flaky, each is `failing` with what is wrong now and what the person can do', () => {
    const s = state([A, C, D]);
    holdAccepted(s);
    assert.deepEqual([...s.failing.keys()], [B], 'only the run’s own failing test is left for the judge');
    assert.deepEqual(s.loadFailures, []);
    assert.deepEqual(s.results.get(A), {
      caseId: A,
      outcome: 'failing',
      step: 'passes_every_run',
      test: 'a works',
      reason: `you accepted this test; it is left as you accepted it: it fails now (expected 'x', got 'y')${tail(A)}`,
    });
    assert.equal(
      s.results.get(C)?.reason,
      `you accepted this test; it is left as you accepted it: it does not pass every run now (flaky: passed 2 of 3 runs)${tail(C)}`,
    );
    assert.equal(s.results.get(C)?.outcome, 'failing');
    assert.deepEqual([s.results.get(D)?.outcome, s.results.get(D)?.step], ['failing', 'loads']);
    assert.match(s.results.get(D)!.reason!, /it does not load now \(SyntaxError: Unexpected token '\)'\)/);
    assert.equal(s.results.get(B), undefined);
  });

  it('with none accepted nothing changes', () => {
    const s = state([]);
    holdAccepted(s);
    assert.deepEqual([...s.failing.keys()], [A, B]);
    assert.equal(s.loadFailures.length, 1);
    assert.equal(s.results.get(C)?.outcome, 'flaky');
  });
});
