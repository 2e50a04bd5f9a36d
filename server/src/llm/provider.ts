import type { AgentId } from '../core/agents';

interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

export interface ChatRequest {
  agent: AgentId;
  model: string;
  messages: [ChatMessage, ChatMessage];
  temperature: number;
  top_p: 1;
  seed: number;
  /** the reply's JSON Schema (a contract of schemas/), asked for as structured output where the endpoint allows */
  responseSchema?: { name: string; schema: Record<string, unknown> };
  /** the reply's output bound (the run's --max-output-tokens); the provider's own when absent */
  maxOutputTokens?: number;
  /** 1-based attempt of the activity; informational (recordings), never sent */
  attempt?: number;
  signal?: AbortSignal;
}

/** Tokens of one reply, as the endpoint reported them. */
export interface ReplyUsage {
  promptTokens: number;
  completionTokens: number;
  cachedTokens?: number;
}

export interface ChatReply {
  content: string;
  model: string;
  /** absent when the endpoint reported none */
  usage?: ReplyUsage;
}

/** One conversation with one agent. It is used for one request and then dropped. */
export interface LlmSession {
  complete(req: ChatRequest): Promise<ChatReply>;
}

/**
 * A provider opens sessions. Each call to openSession must give a session that
 * shares no state (client object, history, closures) with any other.
 */
export interface LlmProvider {
  readonly name: string;
  openSession(agent: AgentId): LlmSession;
}
