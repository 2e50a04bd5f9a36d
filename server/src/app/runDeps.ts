// A run's dependencies, built one way for every front door: VS Code (lsp/service.ts), the CLI
// (cli/pipeline.ts) and MCP (cli/mcpRuns.ts) each turn their own settings or flags into a provider,
// an approver and the person's risks, and hand them here for the rest: the crawler, the store and
// the scale services (app/scale.ts), the stages, the risk policy and the back-off.
import { crawlMap } from '../agents/crawler/staticMap';
import type { Approver } from '../gateway/gateway';
import type { RiskOverrides } from '../gateway/policy';
import type { LlmProvider } from '../llm/provider';
import type { PipelineDeps, PipelineEvent } from '../pipeline/deps';
import type { RunStore } from '../store/types';
import { runPolicy } from './policy';
import { scaleDeps, type ScaleSettings } from './scale';
import { standardRun } from './stages';

export interface FrontDoorSettings {
  workspace: string;
  /** built from the person's own settings or flags (app/providers.ts) */
  provider: LlmProvider;
  /** which endpoint it sends to (app/scale.ts endpointOf): the queue and the shared limits key on it */
  endpoint: string;
  scale?: ScaleSettings;
  /** a store the front door keeps open (VS Code keeps one per window); else --store or the embedded one */
  store?: RunStore;
  approver: Approver;
  /** the person's own risk settings; a repository's can only raise a risk (app/policy.ts) */
  risk?: RiskOverrides;
  signal: AbortSignal;
  onEvent: (e: PipelineEvent) => void;
  /** whether workspace code may run right now (VS Code: the workspace is trusted) */
  canExecute?: () => boolean;
}

export async function runDeps(f: FrontDoorSettings): Promise<PipelineDeps> {
  const policy = await runPolicy(f.workspace, f.risk);
  return {
    workspace: f.workspace,
    crawl: crawlMap,
    // The store, and with a cache or queue the shared cache, limits and queue (app/scale.ts).
    ...(await scaleDeps(f.workspace, f.scale ?? {}, f.provider, f.endpoint, f.store)),
    approver: f.approver,
    ...standardRun(),
    ...policy,
    signal: f.signal,
    backoff: backoffFromEnv(),
    onEvent: f.onEvent,
    ...(f.canExecute ? { canExecute: f.canExecute } : {}),
  };
}

/** Test and CI knob: AMTP_BACKOFF_SCALE=0.001 makes the spec's 7.5 s / 1.5 s waits milliseconds. */
export function backoffFromEnv(): PipelineDeps['backoff'] {
  const scale = Number(process.env.AMTP_BACKOFF_SCALE);
  if (!Number.isFinite(scale) || scale <= 0) return undefined;
  return { rateLimitBaseMs: 7500 * scale, transientBaseMs: 1500 * scale, maxDelayMs: 120_000 * scale };
}
