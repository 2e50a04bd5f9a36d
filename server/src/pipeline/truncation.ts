// What happens after a reply stopped at the output bound (OutputTruncated, finish_reason "length").
// It is not malformed output: the work did not fit in one reply. A batch that can be cut is cut in
// two halves, each its own batch in a new session; one that cannot (one symbol, one case) is sent
// again once, then the run fails saying which bound to raise.
import type { OutputTruncated } from '../llm/errors';

/** Retries of one batch that cannot be cut further. */
const MAX_TRUNCATION_RETRIES = 1;

export type TruncationPlan = { action: 'split' } | { action: 'retry' } | { action: 'fail'; reason: string };

export function planAfterTruncation(e: OutputTruncated, truncations: number, canSplit: boolean): TruncationPlan {
  if (canSplit) return { action: 'split' };
  if (truncations <= MAX_TRUNCATION_RETRIES) return { action: 'retry' };
  return {
    action: 'fail',
    reason: `the reply was cut at the output bound of ${e.maxOutputTokens} tokens ${truncations} times, and its batch cannot be cut further; raise --max-output-tokens (AMTP_MAX_OUTPUT_TOKENS, amtp.maxOutputTokens) or use a model with a larger output limit`,
  };
}
