import { strict as assert } from 'node:assert';
import type * as P from '../../server/src/protocol';
import { ApprovalQueue, describeApproval } from '../../client/src/model/approvalQueue';

function params(approvalId: string, runId = 'r_1', over: Partial<P.ApprovalParams> = {}): P.ApprovalParams {
  return {
    runId,
    approvalId,
    tool: 'fs.write_outside_tests',
    risk: 'high',
    summary: 'overwrite an existing file',
    diff: { path: 'test/a.test.js', before: 'old', after: 'new' },
    ...over,
  };
}

/** Manual timers so timeouts are tested without waiting. */
function fakeTimers() {
  const timers = new Map<number, () => void>();
  let next = 1;
  return {
    setTimer: (fn: () => void) => (timers.set(next, fn), next++),
    clearTimer: (h: unknown) => void timers.delete(h as number),
    fireAll: () => [...timers.entries()].forEach(([id, fn]) => (timers.delete(id), fn())),
    size: () => timers.size,
  };
}

describe('client ApprovalQueue (inline approvals)', () => {
  it('the first answer wins; later answers are no-ops', async () => {
    const q = new ApprovalQueue();
    const answer = q.request(params('a1'));
    assert.deepEqual(
      q.list().map((a) => a.params.approvalId),
      ['a1'],
    );
    assert.equal(q.decide('a1', 'approved'), true);
    assert.equal(q.decide('a1', 'rejected', 'too late'), false);
    assert.deepEqual(await answer, { decision: 'approved' });
    assert.equal(q.list().length, 0);
  });

  it('a reject carries its note', async () => {
    const q = new ApprovalQueue();
    const answer = q.request(params('a1'));
    q.decide('a1', 'rejected', 'keep my file');
    assert.deepEqual(await answer, { decision: 'rejected', note: 'keep my file' });
  });

  it('answers timeout after amtp.approvalTimeoutSeconds, and a decision clears the timer', async () => {
    const t = fakeTimers();
    const q = new ApprovalQueue({ timeoutSeconds: () => 5, setTimer: t.setTimer, clearTimer: t.clearTimer });
    const timedOut = q.request(params('a1'));
    const decided = q.request(params('a2'));
    assert.equal(t.size(), 2);
    q.decide('a2', 'approved');
    assert.equal(t.size(), 1);
    t.fireAll();
    assert.deepEqual(await timedOut, { decision: 'timeout' });
    assert.deepEqual(await decided, { decision: 'approved' });
  });

  it('no timeout when the setting is 0', () => {
    const t = fakeTimers();
    const q = new ApprovalQueue({ timeoutSeconds: () => 0, setTimer: t.setTimer, clearTimer: t.clearTimer });
    void q.request(params('a1'));
    assert.equal(t.size(), 0);
  });

  it('"Approve all in this run" approves its pending requests and the following ones, not other runs', async () => {
    const q = new ApprovalQueue();
    const a1 = q.request(params('a1', 'r_1'));
    const b1 = q.request(params('b1', 'r_2'));
    assert.equal(q.approveAll('r_1'), 1);
    assert.equal((await a1).decision, 'approved');
    assert.equal(q.has('b1'), true);
    const a2 = await q.request(params('a2', 'r_1'));
    assert.equal(a2.decision, 'approved');
    assert.equal(q.has('a2'), false);
    q.rejectAll('shutdown');
    assert.deepEqual(await b1, { decision: 'rejected', note: 'shutdown' });
  });

  it('a re-sent request with the same id shares the first answer', async () => {
    const q = new ApprovalQueue();
    const first = q.request(params('a1'));
    const again = q.request(params('a1'));
    assert.equal(q.list().length, 1);
    q.decide('a1', 'approved');
    assert.deepEqual([await first, await again], [{ decision: 'approved' }, { decision: 'approved' }]);
  });

  it('latest() is the newest pending request; onDidChange fires on add and decide', () => {
    let now = 0;
    const q = new ApprovalQueue({ now: () => ++now });
    let changes = 0;
    q.onDidChange(() => changes++);
    void q.request(params('a1'));
    void q.request(params('a2'));
    assert.equal(q.latest()?.params.approvalId, 'a2');
    q.decide('a2', 'rejected');
    assert.equal(q.latest()?.params.approvalId, 'a1');
    assert.equal(changes, 3);
  });

  it('describes a write as create or overwrite', () => {
    assert.equal(describeApproval(params('a1')), 'high risk · fs.write_outside_tests: overwrite test/a.test.js');
    assert.equal(
      describeApproval(params('a1', 'r', { diff: { path: 'x.js', before: null, after: '' } })),
      'high risk · fs.write_outside_tests: create x.js',
    );
    assert.equal(
      describeApproval(params('a1', 'r', { diff: undefined, tool: 'tests.run', target: 'npm test' })),
      'high risk · tests.run: npm test',
    );
  });
});
