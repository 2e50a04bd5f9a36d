// Errors about a model or its endpoint. The retry policy keys on their kind (pipeline/retry.ts).
import { AmtpError } from '../core/errors';

/** The reply did not parse as JSON after sanitizing. A fresh session may do better. */
export class MalformedLlmOutput extends AmtpError {
  readonly kind = 'MalformedLlmOutput';
  readonly retryable = true;
  constructor(message: string, readonly excerpt: string) {
    super(message);
  }
}

export class RateLimitError extends AmtpError {
  readonly kind = 'RateLimited';
  readonly retryable = true;
  constructor(message: string, readonly retryAfterMs: number | undefined) {
    super(message);
  }
}

/** 5xx, connection reset, timeout. */
export class TransientLlmError extends AmtpError {
  readonly kind = 'TransientLlmError';
  readonly retryable = true;
}

/** 401/403/404 and friends: retrying cannot help; the message names the setting to fix. */
export class LlmConfigError extends AmtpError {
  readonly kind = 'LlmConfigError';
  readonly retryable = false;
}
