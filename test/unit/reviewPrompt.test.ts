import { strict as assert } from 'node:assert';
import { PassThrough, Readable } from 'node:stream';
import type { ReviewTest } from '../../server/src/app/review';
import { askReview, reviewOrder } from '../../server/src/cli/reviewPrompt';

const test = (caseId: string, more: Partial<ReviewTest> = {}): ReviewTest => ({
  caseId,
  title: `title of ${caseId}`,
  priority: 'P1',
  target: { file: 'src/a.js', symbol: 'f' },
  file: 'test/a.amtp.test.js',
  outcome: 'passing',
  ...more,
});

/** Runs the prompt on typed lines; returns the decisions and what the person saw. */
async function answer(tests: ReviewTest[], typed: string[]): Promise<{ actions: unknown[]; shown: string }> {
  const output = new PassThrough();
  let shown = '';
  output.on('data', (b: Buffer) => (shown += b.toString()));
  const actions = await askReview(tests, Readable.from(typed.map((l) => l + '\n')), output);
  return { actions, shown };
}

describe('amtp review on a terminal (cli/reviewPrompt.ts)', () => {
  it('asks about tests that wait for the person first, then quarantined, then kept; decided and unwritten ones not at all', () => {
    const order = reviewOrder([
      test('tc_000000000001'),
      test('tc_000000000002', { outcome: 'quarantined' }),
      test('tc_000000000003', { awaitingReview: true, confidence: 0.6 }),
      test('tc_000000000004', { decision: { verdict: 'accepted', at: '2026-11-30T00:00:00Z', by: 'cli' } }),
      test('tc_000000000005', { outcome: 'failing', file: undefined }),
      test('tc_000000000006', { outcome: 'held_back', file: undefined }),
    ]);
    assert.deepEqual(
      order.map((t) => t.caseId),
      ['tc_000000000003', 'tc_000000000002', 'tc_000000000001'],
    );
  });

  it('records a key per test with its reason, re-asks on an unknown key, and returns them after a yes', async () => {
    const tests = [test('tc_000000000001'), test('tc_000000000002', { outcome: 'quarantined' }), test('tc_000000000003')];
    const { actions, shown } = await answer(tests, ['w', 'README says 3', 'x', 'd', 'pins a bug', 's', 'y']);
    assert.deepEqual(actions, [
      { caseId: 'tc_000000000002', verdict: 'docs_wrong', reason: 'README says 3' },
      { caseId: 'tc_000000000001', verdict: 'rejected', reason: 'pins a bug' },
    ]);
    assert.match(shown, /\[1\/3\] title of tc_000000000002/);
    assert.match(shown, /"x" is not one of: k keep, d drop, t test wrong, s skip, q stop/);
    assert.match(shown, /record 2 decision\(s\) \(drop 1, docs wrong 1\)\? \[y\/N\]/);
  });

  it('offers the quarantine answers only for a quarantined test', async () => {
    const { actions, shown } = await answer([test('tc_000000000001')], ['b', 'k', 'y']);
    assert.deepEqual(actions, [{ caseId: 'tc_000000000001', verdict: 'accepted' }]);
    assert.match(shown, /"b" is not one of/);
  });

  it('records nothing when the person declines, stops, or the input ends', async () => {
    assert.deepEqual((await answer([test('tc_000000000001')], ['k', 'n'])).actions, []);
    assert.deepEqual((await answer([test('tc_000000000001'), test('tc_000000000002')], ['q'])).actions, []);
    assert.deepEqual((await answer([test('tc_000000000001')], ['d'])).actions, []);
    assert.match((await answer([], [])).shown, /no test waits for a decision/);
  });
});
