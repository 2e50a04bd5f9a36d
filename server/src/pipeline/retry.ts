// The one retry policy of every model call (pipeline/askModel.ts), keyed on `AmtpError.retryable`:
// an error that is not retryable ends the call; a retryable one is sent again in a new session
// within its kind's budget, after a back-off for 429/5xx.
import { AmtpError, CancelledError } from '../core/errors';
import { MalformedLlmOutput, OutputTruncated, RateLimitError } from '../llm/errors';

export interface BackoffPolicy {
  /** per-attempt base when a 429 carries no Retry-After (spec: 7.5 s × attempt) */
  rateLimitBaseMs: number;
  /** per-attempt base for 5xx, reset, timeout (spec: 1.5 s × attempt) */
  transientBaseMs: number;
  /** how many 429/5xx retries one activity may spend before it fails */
  maxTransportRetries: number;
  /** ceiling on any single wait, so a hostile Retry-After cannot park a run for a day */
  maxDelayMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { rateLimitBaseMs: 7500, transientBaseMs: 1500, maxTransportRetries: 5, maxDelayMs: 120_000 };

/** Each failure kind spends its own budget of retries. */
export interface RetryBudget {
  malformed: number;
  transport: number;
  truncated: number;
}

export interface RetryRules {
  /** replies that do not parse, before the call fails (the run's --max-attempts) */
  maxAttempts: number;
  backoff: BackoffPolicy;
}

/** What to do after a failed attempt. `truncated`: the caller decides (a batch may be cut in halves). */
export type RetryStep =
  | { action: 'retry'; delayMs: number; /** a 429: every call sharing the gate waits */ holdAll: boolean; why: string }
  | { action: 'truncated'; times: number }
  | { action: 'give_up'; reason: string }
  | { action: 'stop' };

export function retryStep(e: unknown, spent: RetryBudget, rules: RetryRules): RetryStep {
  if (!(e instanceof AmtpError) || !e.retryable || e instanceof CancelledError) return { action: 'stop' };
  if (e instanceof OutputTruncated) return { action: 'truncated', times: ++spent.truncated };
  if (e instanceof MalformedLlmOutput) {
    if (++spent.malformed >= rules.maxAttempts)
      return { action: 'give_up', reason: `gave malformed output ${spent.malformed} times: ${e.message}` };
    return { action: 'retry', delayMs: 0, holdAll: false, why: 'retrying in a new session' };
  }
  // 429, 5xx, resets, timeouts, and any other retryable kind: back off, within the transport budget.
  if (++spent.transport > rules.backoff.maxTransportRetries)
    return { action: 'give_up', reason: `gave up after ${spent.transport} retries: ${e.message}` };
  const delayMs = backoffDelay(e, spent.transport, rules.backoff);
  return { action: 'retry', delayMs, holdAll: e instanceof RateLimitError, why: `retrying in ${delayMs} ms` };
}

function backoffDelay(e: AmtpError, attempt: number, p: BackoffPolicy): number {
  const ms = e instanceof RateLimitError ? (e.retryAfterMs ?? p.rateLimitBaseMs * attempt) : p.transientBaseMs * attempt;
  return Math.min(ms, p.maxDelayMs);
}

/** How long a 429 holds every process sending to the endpoint (the queue worker answers one attempt, the first). */
export function rateLimitHold(e: RateLimitError, p: BackoffPolicy): number {
  return Math.min(e.retryAfterMs ?? p.rateLimitBaseMs, p.maxDelayMs);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new CancelledError());
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(new CancelledError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
