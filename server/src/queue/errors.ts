// A model call's typed error, across processes: the worker stores what it caught, the coordinator
// raises the same class again, so the run's one retry policy (pipeline/retry.ts) decides
// exactly as it would have for a call made in its own process.
import { AmtpError, errorKind, errorMessage } from '../core/errors';
import { LlmConfigError, MalformedLlmOutput, OutputTruncated, RateLimitError, TransientLlmError, usageOf } from '../llm/errors';
import type { StoredError } from './ledger';

export function storeError(e: unknown): StoredError {
  const usage = usageOf(e);
  return {
    kind: errorKind(e),
    message: errorMessage(e),
    ...(e instanceof RateLimitError && e.retryAfterMs !== undefined ? { retryAfterMs: e.retryAfterMs } : {}),
    ...(e instanceof OutputTruncated ? { maxOutputTokens: e.maxOutputTokens } : {}),
    ...(e instanceof MalformedLlmOutput || e instanceof OutputTruncated ? { excerpt: e.excerpt } : {}),
    ...(usage ? { usage } : {}),
  };
}

/** The error a worker stored, as its class; a kind this version does not know is a plain Error with its message. */
export function raisedError(s: StoredError): Error {
  switch (s.kind) {
    case 'MalformedLlmOutput':
      return new MalformedLlmOutput(s.message, s.excerpt ?? '', s.usage);
    case 'OutputTruncated':
      return new OutputTruncated(s.message, s.maxOutputTokens ?? 0, s.excerpt ?? '', s.usage);
    case 'RateLimited':
      return new RateLimitError(s.message, s.retryAfterMs);
    case 'TransientLlmError':
      return new TransientLlmError(s.message);
    case 'LlmConfigError':
      return new LlmConfigError(s.message);
    default:
      return Object.assign(new Error(s.message), { name: s.kind });
  }
}

/** Why a worker will not run a job; the job goes back to the queue for a worker that will. */
export class JobRefused extends AmtpError {
  readonly kind = 'JobRefused';
  readonly retryable = true;
}
