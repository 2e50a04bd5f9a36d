import { DEFAULT_BATCHING } from '../core/run';
import { AGENTS, type AgentId } from '../core/agents';
import type { Depth, FrameworkChoice } from '../core/frameworks';
import type { RunParams } from '../core/run';

const MAX_TEMPERATURE = 0.2;
const DEFAULT_SEED = 1234;

export interface ParamInput {
  depth?: Depth;
  framework?: FrameworkChoice;
  provider?: string;
  model?: string;
  models?: Partial<Record<AgentId, string>>;
  temperature?: number;
  seed?: number;
  maxAttempts?: number;
  /** batch budgets (tokens) and how many batches run at once */
  maxInputTokens?: number;
  maxOutputTokens?: number;
  concurrency?: number;
}

/** Resolves run parameters; temperature above 0.2 is clamped (determinism) and reported. */
export function resolveParams(input: ParamInput, warn: (msg: string) => void = () => undefined): RunParams {
  const provider = input.provider ?? 'offline';
  // vscode-lm: `auto` is the first model VS Code offers (Copilot's when there is one).
  const fallback = input.model ?? (provider === 'offline' ? 'offline' : provider === 'vscode-lm' ? 'auto' : 'gpt-4o-mini');
  const models = Object.fromEntries(AGENTS.map((a) => [a, input.models?.[a] || fallback])) as Record<AgentId, string>;
  let temperature = input.temperature ?? 0;
  if (!Number.isFinite(temperature) || temperature < 0) temperature = 0;
  if (temperature > MAX_TEMPERATURE) {
    warn(`temperature ${temperature} is above ${MAX_TEMPERATURE}; using ${MAX_TEMPERATURE} so runs stay reproducible`);
    temperature = MAX_TEMPERATURE;
  }
  return {
    depth: input.depth ?? 'standard',
    framework: input.framework ?? 'auto',
    provider,
    models,
    seed: Number.isInteger(input.seed) ? (input.seed as number) : DEFAULT_SEED,
    temperature,
    maxAttempts: input.maxAttempts && input.maxAttempts > 0 ? Math.floor(input.maxAttempts) : 3,
    batching: {
      inputTokens: positive(input.maxInputTokens) ?? DEFAULT_BATCHING.inputTokens,
      outputTokens: positive(input.maxOutputTokens) ?? DEFAULT_BATCHING.outputTokens,
      concurrency: positive(input.concurrency) ?? DEFAULT_BATCHING.concurrency,
    },
  };
}

function positive(n: number | undefined): number | undefined {
  return n !== undefined && Number.isFinite(n) && n >= 1 ? Math.floor(n) : undefined;
}
