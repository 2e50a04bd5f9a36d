import { CancelledError } from '../core/errors';
import { RateLimitError, type TransientLlmError } from '../llm/errors';

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

export function backoffDelay(e: RateLimitError | TransientLlmError, attempt: number, p: BackoffPolicy): number {
  const ms = e instanceof RateLimitError ? (e.retryAfterMs ?? p.rateLimitBaseMs * attempt) : p.transientBaseMs * attempt;
  return Math.min(ms, p.maxDelayMs);
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
