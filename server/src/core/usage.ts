// Token usage as endpoints report it, summed per activity, per agent and per run. Types and pure
// arithmetic only, so every layer (llm, pipeline, lsp, client) can name and add them.

/** Tokens of one or more replies. `cached` is the part of `prompt` the endpoint served from its cache. */
export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  /** replies counted (with or without reported usage) */
  requests: number;
  /** replies whose endpoint reported no usage: their tokens are missing from the sums */
  unreported?: number;
}

export const NO_USAGE: TokenUsage = Object.freeze({ promptTokens: 0, completionTokens: 0, cachedTokens: 0, requests: 0 });

/** a + b; `unreported` is kept only when some reply had none. */
export function addUsage(a: TokenUsage | undefined, b: TokenUsage | undefined): TokenUsage {
  const x = a ?? NO_USAGE;
  const y = b ?? NO_USAGE;
  const unreported = (x.unreported ?? 0) + (y.unreported ?? 0);
  return {
    promptTokens: x.promptTokens + y.promptTokens,
    completionTokens: x.completionTokens + y.completionTokens,
    cachedTokens: x.cachedTokens + y.cachedTokens,
    requests: x.requests + y.requests,
    ...(unreported ? { unreported } : {}),
  };
}

/** One reply's usage; `undefined` (the endpoint said nothing) counts the request as unreported. */
export function replyUsage(u: { promptTokens: number; completionTokens: number; cachedTokens?: number } | undefined): TokenUsage {
  if (!u) return { ...NO_USAGE, requests: 1, unreported: 1 };
  return { promptTokens: u.promptTokens, completionTokens: u.completionTokens, cachedTokens: u.cachedTokens ?? 0, requests: 1 };
}

/** USD per million tokens, per model (exact model name, case-insensitive). */
export interface ModelPrice {
  input: number;
  output: number;
  /** price of cached prompt tokens; defaults to `input` */
  cachedInput?: number;
}
export type PriceTable = Record<string, ModelPrice>;

/** A run's sums: what the run record, the CLI summary, --json and the VS Code run view show. */
export interface RunUsage {
  total: TokenUsage;
  byAgent: Record<string, TokenUsage>;
  /** USD, from the price table; absent without one */
  costUsd?: number;
  /** models the price table has no row for (their tokens are not in costUsd) */
  unpriced?: string[];
  /** the cost comes from AMTP's default price table, whose prices date from this day */
  pricesAsOf?: string;
}

/** One agent's health in a run (in the spirit of TPipe's health report). */
export interface AgentHealth {
  agent: string;
  status: string;
  /** first attempt started → last attempt ended (or now, while running); backoff waits included */
  wallMs: number;
  attempts: number;
  errors: number;
  /** errors / attempts, 0..1 */
  errorRatio: number;
  /** how many errors of each kind */
  errorKinds: Record<string, number>;
  usage: TokenUsage;
  costUsd?: number;
}

export interface RunHealth {
  /** run created → last update */
  wallMs: number;
  attempts: number;
  errors: number;
  errorRatio: number;
  usage: TokenUsage;
  costUsd?: number;
  agents: AgentHealth[];
}
