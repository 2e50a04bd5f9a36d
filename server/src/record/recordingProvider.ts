import { AmtpError, errorKind, errorMessage } from '../core/errors';
import { OutputTruncated, RateLimitError, usageOf } from '../llm/errors';
import type { ChatReply, ChatRequest, LlmProvider, LlmSession, ReplyUsage } from '../llm/provider';
import { canonicalJson, sha256 } from '../core/canonical';
import type { AgentId } from '../core/agents';
import type { Recorder } from './recorder';

export interface RecordedError {
  kind: string;
  message: string;
  retryAfterMs?: number;
  /** OutputTruncated: the bound the reply hit */
  maxOutputTokens?: number;
}

/** The `usage` field of a response_sent event (format v1, optional: older recordings have none). */
export interface RecordedUsage {
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
}

function recordedUsage(u: ReplyUsage | undefined): { usage?: RecordedUsage } {
  return u ? { usage: { prompt_tokens: u.promptTokens, completion_tokens: u.completionTokens, cached_tokens: u.cachedTokens ?? 0 } } : {};
}

/** Records every LLM request and its reply (or typed error) around a real provider. */
export class RecordingProvider implements LlmProvider {
  constructor(
    private readonly inner: LlmProvider,
    private readonly rec: Recorder,
  ) {}

  get name(): string {
    return this.inner.name;
  }

  openSession(agent: AgentId): LlmSession {
    const session = this.inner.openSession(agent);
    const rec = this.rec;
    return {
      async complete(req: ChatRequest): Promise<ChatReply> {
        const prompt_hash = sha256(canonicalJson(req.messages));
        const request = { model: req.model, messages: req.messages, temperature: req.temperature, top_p: req.top_p, seed: req.seed };
        const sent = rec.event('task_sent', 'orchestrator', request, { recipient_agent_id: agent, prompt_hash, attempt: req.attempt ?? 1 });
        const received = rec.event('task_received', agent, request, {}, sent);
        try {
          const reply = await session.complete(req);
          rec.event(
            'response_sent',
            agent,
            { content: reply.content, model: reply.model },
            { recipient_agent_id: 'orchestrator', prompt_hash, outcome: 'reply', ...recordedUsage(reply.usage) },
            received,
          );
          return reply;
        } catch (e) {
          // Cancellation is the person's act, not the model's answer: it is not replayed.
          if (!(e instanceof AmtpError) || e.kind !== 'Cancelled') {
            const error: RecordedError = {
              kind: errorKind(e),
              message: errorMessage(e),
              ...(e instanceof RateLimitError && e.retryAfterMs !== undefined ? { retryAfterMs: e.retryAfterMs } : {}),
              ...(e instanceof OutputTruncated ? { maxOutputTokens: e.maxOutputTokens } : {}),
            };
            rec.event(
              'response_sent',
              agent,
              { error },
              { recipient_agent_id: 'orchestrator', prompt_hash, outcome: 'error', ...recordedUsage(usageOf(e)) },
              received,
            );
          }
          throw e;
        }
      },
    };
  }
}
