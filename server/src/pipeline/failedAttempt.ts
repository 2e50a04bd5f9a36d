// What batched and single-session agent attempts share once an attempt failed: the retry budgets
// and the tokens it cost (pipeline/batchSession.ts, pipeline/legacyAgentStage.ts).
import { replyUsage, type TokenUsage } from '../core/usage';
import { MalformedLlmOutput, OutputTruncated, usageOf } from '../llm/errors';
import type { ChatReply } from '../llm/provider';

/** Each failure kind spends its own budget of retries. */
export interface RetryBudget {
  malformed: number;
  transport: number;
  truncated: number;
}

/**
 * The tokens a failed attempt is billed for: a reply that came back and was rejected, or a cut or
 * unparsable one (its usage, if reported, rides on the error); undefined when no reply was received.
 */
export function failedAttemptUsage(e: unknown, reply: ChatReply | undefined): TokenUsage | undefined {
  const received = reply !== undefined || e instanceof MalformedLlmOutput || e instanceof OutputTruncated;
  return received ? replyUsage(reply ? reply.usage : usageOf(e)) : undefined;
}
