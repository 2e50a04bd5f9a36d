import type { AgentOutputs } from '../contracts/agentSchemas';
import { parseEnvelopeFor, type AgentEnvelope } from '../contracts/envelope';
import type { AgentId } from '../core/agents';
import type { ChatReply, ChatRequest, LlmProvider, LlmSession } from './provider';

/** One built-in engine per agent: its envelope in, its contract's output back. */
export type OfflineEngines = { [A in AgentId]: (env: AgentEnvelope<A>) => AgentOutputs[A] | Promise<AgentOutputs[A]> };

/**
 * The keyless provider. Each agent's built-in engine sees exactly what a model
 * would: the envelope in the user message, nothing else. Its reply goes through
 * the same sanitize → parse → validate boundary as a model's.
 */
export class OfflineProvider implements LlmProvider {
  readonly name = 'offline';
  constructor(private readonly engines: OfflineEngines) {}

  openSession(agent: AgentId): LlmSession {
    return {
      // No model, no tokens: the usage is a real zero, not an unreported one.
      complete: async (req: ChatRequest): Promise<ChatReply> => ({
        content: JSON.stringify(await this.answer(agent, req.messages[1].content)),
        model: 'offline',
        usage: { promptTokens: 0, completionTokens: 0, cachedTokens: 0 },
      }),
    };
  }

  private answer<A extends AgentId>(agent: A, envelope: string): AgentOutputs[A] | Promise<AgentOutputs[A]> {
    const engine: OfflineEngines[A] = this.engines[agent];
    return engine(parseEnvelopeFor(agent, envelope));
  }
}
