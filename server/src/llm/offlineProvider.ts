import { parseEnvelope, type HandoffEnvelope } from '../contracts/envelope';
import type { AgentId } from '../core/agents';
import type { ChatReply, ChatRequest, LlmProvider, LlmSession } from './provider';

export type OfflineAgent = (env: HandoffEnvelope) => unknown;

/**
 * The keyless provider. Each agent's built-in engine sees exactly what a model
 * would: the envelope in the user message, nothing else. Its reply goes through
 * the same sanitize → parse → validate boundary as a model's.
 */
export class OfflineProvider implements LlmProvider {
  readonly name = 'offline';
  constructor(private readonly engines: Record<AgentId, OfflineAgent>) {}

  openSession(agent: AgentId): LlmSession {
    const engine = this.engines[agent];
    return {
      async complete(req: ChatRequest): Promise<ChatReply> {
        const env = parseEnvelope(req.messages[1].content);
        if (env.to_agent !== agent) throw new Error(`offline ${agent} got an envelope for ${env.to_agent}`);
        // No model, no tokens: the usage is a real zero, not an unreported one.
        return { content: JSON.stringify(await engine(env)), model: 'offline', usage: { promptTokens: 0, completionTokens: 0, cachedTokens: 0 } };
      },
    };
  }
}
