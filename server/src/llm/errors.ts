import type { ContractError } from '../contracts/validate';

/** Every error the pipeline reasons about carries a stable `kind` and whether a retry may help. */
export abstract class AmtpError extends Error {
  abstract readonly kind: string;
  abstract readonly retryable: boolean;
}

/** The reply did not parse as JSON after sanitizing. A fresh session may do better. */
export class MalformedLlmOutput extends AmtpError {
  readonly kind = 'MalformedLlmOutput';
  readonly retryable = true;
  constructor(message: string, readonly excerpt: string) {
    super(message);
  }
}

/** The reply parsed but broke the contract. A person must look: retrying would hide a prompt/schema mismatch. */
export class SchemaValidationError extends AmtpError {
  readonly kind = 'SchemaValidationError';
  readonly retryable = false;
  constructor(message: string, readonly schema: string, readonly errors: ContractError[]) {
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

export class CancelledError extends AmtpError {
  readonly kind = 'Cancelled';
  readonly retryable = false;
  constructor(message = 'run cancelled') {
    super(message);
  }
}

/** The store on disk is unreadable; never silently reset. */
export class StoreCorruptError extends AmtpError {
  readonly kind = 'StoreCorrupt';
  readonly retryable = false;
}

export class UsageError extends AmtpError {
  readonly kind = 'UsageError';
  readonly retryable = false;
}

export function errorKind(e: unknown): string {
  return e instanceof AmtpError ? e.kind : e instanceof Error ? e.name || 'Error' : 'Error';
}

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
