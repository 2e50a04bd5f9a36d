import { AmtpError } from '../core/errors';
import { LlmConfigError, MalformedLlmOutput, OutputTruncated, RateLimitError, TransientLlmError } from '../llm/errors';
import type { ChatReply, ChatRequest, LlmProvider, LlmSession, ReplyUsage } from '../llm/provider';
import { canonicalJson, sha256 } from '../core/canonical';
import type { AgentId } from '../core/agents';
import type { Recording, RecordedEvent } from './recording';
import type { RecordedError, RecordedUsage } from './recordingProvider';

/** A request the recording cannot answer. There is no fallback: the replay stops here. */
export class ReplayDivergence extends AmtpError {
  readonly kind = 'ReplayDivergence';
  readonly retryable = false;
  constructor(
    message: string,
    readonly eventId: string | null,
  ) {
    super(message);
  }
}

export interface ConsumedEvent {
  source_event_id: string;
  type: string;
  agent: string;
  key: string;
  payload_hash: string;
}

/**
 * Answers LLM calls from the recording, keyed by agent + prompt hash; repeated
 * attempts with the same prompt get the recorded replies in recorded order.
 */
export class ReplayProvider implements LlmProvider {
  readonly name: string;
  private readonly queues = new Map<string, RecordedEvent[]>();
  private readonly tasks: RecordedEvent[];
  private taskCursor = 0;

  constructor(
    private readonly rec: Recording,
    private readonly consumed: ConsumedEvent[] = [],
    private readonly perturb?: (content: string) => string,
  ) {
    this.name = rec.header.run.provider;
    for (const e of rec.events) {
      if (e.type !== 'response_sent') continue;
      const key = `${e.agent_id}\n${e.prompt_hash}`;
      this.queues.set(key, [...(this.queues.get(key) ?? []), e]);
    }
    this.tasks = rec.events.filter((e) => e.type === 'task_sent');
  }

  openSession(agent: AgentId): LlmSession {
    return {
      complete: async (req: ChatRequest): Promise<ChatReply> => {
        // Pinned: an older recording's system prompt stands in for this version's, so prompt wording changes do not break it.
        const promptHash = sha256(canonicalJson(req.messages));
        const expected = this.tasks[this.taskCursor];
        const next = this.queues.get(`${agent}\n${promptHash}`)?.shift();
        if (!next) {
          const where = expected
            ? `the recording's next request is event ${expected.event_id} (${expected.recipient_agent_id}, prompt ${expected.prompt_hash!.slice(0, 16)})`
            : 'the recording has no more requests';
          throw new ReplayDivergence(
            `replay diverged: ${agent} request with prompt ${promptHash.slice(0, 16)} is not in the recording; ${where}`,
            expected?.event_id ?? null,
          );
        }
        this.taskCursor++;
        const payload = this.rec.payloads.get(next.payload_ref) as { content?: string; model?: string; error?: RecordedError };
        if (next.outcome === 'error') {
          this.consumed.push({
            source_event_id: next.event_id,
            type: 'response_sent',
            agent,
            key: promptHash,
            payload_hash: next.payload_hash,
          });
          throw reviveError(payload.error!, usageFrom(next.usage));
        }
        const reply = { content: this.perturb ? this.perturb(payload.content!) : payload.content!, model: payload.model ?? req.model };
        // The hash of what the pipeline actually got, so a perturbed reply shows up as a divergence.
        this.consumed.push({
          source_event_id: next.event_id,
          type: 'response_sent',
          agent,
          key: promptHash,
          payload_hash: sha256(canonicalJson(reply)).slice(0, 16),
        });
        const usage = usageFrom(next.usage);
        return usage ? { ...reply, usage } : reply;
      },
    };
  }
}

/** Recordings made before usage was recorded have none: the replayed run counts those replies as unreported. */
function usageFrom(u: RecordedUsage | undefined): ReplyUsage | undefined {
  return u ? { promptTokens: u.prompt_tokens, completionTokens: u.completion_tokens, cachedTokens: u.cached_tokens } : undefined;
}

function reviveError(e: RecordedError, usage: ReplyUsage | undefined): Error {
  switch (e.kind) {
    case 'OutputTruncated':
      return new OutputTruncated(e.message, e.maxOutputTokens ?? 0, '', usage);
    case 'RateLimited':
      return new RateLimitError(e.message, e.retryAfterMs);
    case 'TransientLlmError':
      return new TransientLlmError(e.message);
    case 'LlmConfigError':
      return new LlmConfigError(e.message);
    case 'MalformedLlmOutput':
      return new MalformedLlmOutput(e.message, '', usage);
    default:
      return new Error(`${e.kind}: ${e.message}`);
  }
}

/** The system prompt each agent was sent when the recording was made (pinned replays use them). */
export function recordedSystemPrompts(rec: Recording): Partial<Record<AgentId, string>> {
  const out: Partial<Record<AgentId, string>> = {};
  for (const e of rec.events) {
    const agent = e.recipient_agent_id as AgentId | undefined;
    if (e.type !== 'task_sent' || !agent || out[agent] !== undefined) continue;
    const req = rec.payloads.get(e.payload_ref) as { messages: { content: string }[] };
    out[agent] = req.messages[0].content;
  }
  return out;
}
