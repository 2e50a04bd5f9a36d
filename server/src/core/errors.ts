// Typed errors that are not about a model. LLM errors (malformed output, rate limits, transport,
// configuration) live in llm/errors.ts.

/** One contract violation: where in the instance, and what. */
export interface ContractError {
  /** JSON pointer into the instance */
  path: string;
  message: string;
  keyword: string;
}

/** Every error the pipeline reasons about carries a stable `kind` and whether a retry may help. */
export abstract class AmtpError extends Error {
  abstract readonly kind: string;
  abstract readonly retryable: boolean;
}

/** The value parsed but broke the contract. A person must look: retrying would hide a prompt/schema mismatch. */
export class SchemaValidationError extends AmtpError {
  readonly kind = 'SchemaValidationError';
  readonly retryable = false;
  constructor(
    message: string,
    readonly schema: string,
    readonly errors: ContractError[],
  ) {
    super(message);
  }
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

/** A run record this person did not create here (it came with the repository, or from another checkout). */
export class ForeignRunError extends AmtpError {
  readonly kind = 'ForeignRun';
  readonly retryable = false;
}

/** A service AMTP was told to use (a Postgres store, a Redis cache or queue) cannot be reached or refuses it. */
export class ServiceUnavailableError extends AmtpError {
  readonly kind = 'ServiceUnavailable';
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
