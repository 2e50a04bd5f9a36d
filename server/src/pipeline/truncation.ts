// What happens after a reply stopped at the output bound (OutputTruncated, finish_reason "length").
// It is not malformed output: the work did not fit in one reply. It is retried once and recorded
// under its own kind. Issue 13 (batches under a token budget) plugs in here: instead of sending
// the same envelope again, the batch is split in two and each half retried as its own activity.
import type { OutputTruncated } from '../llm/errors';

/** Retries of one activity after a cut reply. */
export const MAX_TRUNCATION_RETRIES = 1;

export type TruncationPlan =
  | { action: 'retry' }
  /** issue 13: `split` — re-plan the batch into smaller ones (not produced yet: there are no batches) */
  | { action: 'fail'; reason: string };

export function planAfterTruncation(e: OutputTruncated, truncations: number): TruncationPlan {
  if (truncations <= MAX_TRUNCATION_RETRIES) return { action: 'retry' };
  return {
    action: 'fail',
    reason: `the reply was cut at the output bound of ${e.maxOutputTokens} tokens ${truncations} times; raise --max-output-tokens (AMTP_MAX_OUTPUT_TOKENS, amtp.maxOutputTokens) or use a model with a larger output limit`,
  };
}
