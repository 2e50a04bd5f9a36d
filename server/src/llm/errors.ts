// Errors about a model or its endpoint. The one retry policy (pipeline/retry.ts) keys on `retryable`, then on their kind.
import { AmtpError } from '../core/errors';
import type { ReplyUsage } from './provider';

/** The reply did not parse as JSON after sanitizing. A fresh session may do better. */
export class MalformedLlmOutput extends AmtpError {
  readonly kind = 'MalformedLlmOutput';
  readonly retryable = true;
  constructor(
    message: string,
    readonly excerpt: string,
    readonly usage?: ReplyUsage,
  ) {
    super(message);
  }
}

/**
 * The reply stopped at the output bound (finish_reason "length"): the JSON is cut, so parsing it
 * would only fail. Not malformed output: the work was too big for one reply. The agent stage
 * retries it once; `splittable` is the seam where batching (issue 13) splits the batch instead.
 */
export class OutputTruncated extends AmtpError {
  readonly kind = 'OutputTruncated';
  readonly retryable = true;
  /** a smaller batch would fit: the fan-out splits the batch and retries (pipeline/truncation.ts) */
  readonly splittable = true;
  constructor(
    message: string,
    readonly maxOutputTokens: number,
    readonly excerpt: string,
    readonly usage?: ReplyUsage,
  ) {
    super(message);
  }
}

export class RateLimitError extends AmtpError {
  readonly kind = 'RateLimited';
  readonly retryable = true;
  constructor(
    message: string,
    readonly retryAfterMs: number | undefined,
  ) {
    super(message);
  }
}

/** 5xx, connection reset, timeout (no data for the idle timeout). */
export class TransientLlmError extends AmtpError {
  readonly kind = 'TransientLlmError';
  readonly retryable = true;
}

/** 401/403/404 and friends: retrying cannot help; the message names the setting to fix. */
export class LlmConfigError extends AmtpError {
  readonly kind = 'LlmConfigError';
  readonly retryable = false;
}

/** The tokens of a reply that was received and then refused (malformed, cut), so they are still counted. */
export function usageOf(e: unknown): ReplyUsage | undefined {
  return e instanceof MalformedLlmOutput || e instanceof OutputTruncated ? e.usage : undefined;
}
