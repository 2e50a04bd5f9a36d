// The one retry policy of every model call (pipeline/retry.ts), keyed on AmtpError.retryable.
import { strict as assert } from 'node:assert';
import { CancelledError, SchemaValidationError, StoreCorruptError } from '../../server/src/core/errors';
import { LlmConfigError, MalformedLlmOutput, OutputTruncated, RateLimitError, TransientLlmError } from '../../server/src/llm/errors';
import { DEFAULT_BACKOFF, retryStep, type RetryBudget } from '../../server/src/pipeline/retry';

const rules = { maxAttempts: 3, backoff: DEFAULT_BACKOFF };
const fresh = (): RetryBudget => ({ malformed: 0, transport: 0, truncated: 0 });

describe('retry policy: one for batches, repairs and rounds', () => {
  it('an error that is not retryable, or not ours, ends the call at once', () => {
    for (const e of [
      new SchemaValidationError('x', 'repair-output', []),
      new LlmConfigError('401'),
      new StoreCorruptError('bad'),
      new CancelledError(),
      new Error('boom'),
    ])
      assert.deepEqual(retryStep(e, fresh(), rules), { action: 'stop' }, e.constructor.name);
  });

  it('429 holds everyone (Retry-After, else 7.5 s × retry), 5xx waits 1.5 s × retry, both within one transport budget', () => {
    const b = fresh();
    assert.deepEqual(retryStep(new RateLimitError('429', 2000), b, rules), {
      action: 'retry',
      delayMs: 2000,
      holdAll: true,
      why: 'retrying in 2000 ms',
    });
    assert.deepEqual(retryStep(new TransientLlmError('500'), b, rules), {
      action: 'retry',
      delayMs: 3000,
      holdAll: false,
      why: 'retrying in 3000 ms',
    });
    assert.equal((retryStep(new RateLimitError('429', undefined), b, rules) as { delayMs: number }).delayMs, 22_500);
    assert.equal((retryStep(new RateLimitError('429', 10 * 86_400_000), b, rules) as { delayMs: number }).delayMs, 120_000, 'capped');
    assert.equal(retryStep(new TransientLlmError('500'), b, rules).action, 'retry');
    assert.deepEqual(retryStep(new TransientLlmError('reset'), b, rules), { action: 'give_up', reason: 'gave up after 6 retries: reset' });
  });

  it('a malformed reply is sent again in a new session until --max-attempts replies were malformed', () => {
    const b = fresh();
    const bad = new MalformedLlmOutput('not JSON', 'Sure!');
    assert.equal(retryStep(bad, b, rules).action, 'retry');
    assert.equal(retryStep(bad, b, rules).action, 'retry');
    assert.deepEqual(retryStep(bad, b, rules), { action: 'give_up', reason: 'gave malformed output 3 times: not JSON' });
    assert.equal(b.transport, 0, 'budgets are separate');
  });

  it('a cut reply is counted and left to the caller (a batch cuts itself in halves)', () => {
    const b = fresh();
    const cut = new OutputTruncated('cut', 4096, '{');
    assert.deepEqual(retryStep(cut, b, rules), { action: 'truncated', times: 1 });
    assert.deepEqual(retryStep(cut, b, rules), { action: 'truncated', times: 2 });
  });
});
