// How the CLI (and the MCP server it starts) wires a run: the workspace, the provider from the
// environment, the person's approver and risk flags, and log lines on stderr.
import { shows, type LogLevel } from '../core/log';
import { runDeps } from '../app/runDeps';
import { createProvider, type ProviderSettings } from '../app/providers';
import { endpointOf, type ScaleSettings } from '../app/scale';
import type { AgentId } from '../core/agents';
import type { Depth, FrameworkChoice } from '../core/frameworks';
import { mutationParams } from '../core/mutation';
import { DEFAULT_VERIFY, type RunParams } from '../core/run';
import { approveAll, deferAll, ttyApprover } from '../gateway/approvers';
import type { Approver } from '../gateway/gateway';
import type { RiskOverrides } from '../gateway/policy';
import { resolveParams } from '../pipeline/config';
import type { PipelineDeps, PipelineEvent } from '../pipeline/deps';
import { err } from './io';

export function approverFor(yes: boolean | undefined): Approver {
  if (yes) return approveAll;
  if (process.stdin.isTTY && process.stderr.isTTY) return ttyApprover(process.stdin, process.stderr);
  return deferAll; // no person to ask: nothing risky happens; `amtp approve` decides later
}

export interface RunOptions {
  depth?: Depth;
  framework?: FrameworkChoice;
  provider: string;
  model?: string;
  models?: Partial<Record<AgentId, string>>;
  seed?: number;
  temperature?: number;
  maxAttempts?: number;
  maxInputTokens?: number;
  maxOutputTokens?: number;
  concurrency?: number;
  verify?: boolean;
  /** run undocumented functions to pin what they do (default on) */
  characterize?: boolean;
  /** the offline search's time budget in seconds (default 60) */
  searchBudget?: number;
  runs?: number;
  /** coverage rounds after verification, and the prompt tokens they share */
  rounds?: number;
  roundTokens?: number;
  testTimeout?: number;
  /** mutation analysis while verifying (default on) and its budget in seconds */
  mutation?: boolean;
  mutationBudget?: number;
  commit?: boolean;
  intoExisting?: boolean;
  /** kept tests below it wait for review (default 0.75), unless acceptLowConfidence */
  confidenceThreshold?: number;
  acceptLowConfidence?: boolean;
}

/** Run parameters with the environment's models; verification on unless turned off. */
export function runParams(o: RunOptions): RunParams {
  const params = resolveParams(
    {
      depth: o.depth,
      framework: o.framework,
      provider: o.provider,
      model: o.model ?? process.env.AMTP_MODEL,
      seed: o.seed,
      temperature: o.temperature,
      maxAttempts: o.maxAttempts,
      maxInputTokens: o.maxInputTokens,
      maxOutputTokens: o.maxOutputTokens ?? envNumber('AMTP_MAX_OUTPUT_TOKENS'),
      concurrency: o.concurrency,
      models: {
        crawler: o.models?.crawler ?? process.env.AMTP_CRAWLER_MODEL,
        generator: o.models?.generator ?? process.env.AMTP_GENERATOR_MODEL,
        engineer: o.models?.engineer ?? process.env.AMTP_ENGINEER_MODEL,
      },
    },
    (m) => err(`amtp: warning: ${m}`),
  );
  // Verification is on by default; it is skipped (with the reason recorded) when the tests cannot run here.
  params.verify = {
    ...DEFAULT_VERIFY,
    enabled: o.verify !== false,
    ...(o.runs !== undefined ? { runs: o.runs } : {}),
    ...(o.rounds !== undefined ? { rounds: o.rounds } : {}),
    ...(o.roundTokens !== undefined ? { roundTokens: o.roundTokens } : {}),
    ...(o.testTimeout !== undefined ? { timeoutSeconds: o.testTimeout } : {}),
    mutation: mutationParams(o.mutation, o.mutationBudget),
  };
  if (o.commit) params.commit = true;
  params.characterize = o.characterize !== false;
  if (o.searchBudget !== undefined) params.searchBudget = o.searchBudget;
  if (o.intoExisting) params.intoExisting = true;
  if (o.confidenceThreshold !== undefined) params.confidenceThreshold = o.confidenceThreshold;
  if (o.acceptLowConfidence) params.acceptLowConfidence = true;
  return params;
}

/** Pipeline wiring. Endpoints and keys come from flags and the environment, risks from --risk: the person's own. */
export async function pipelineDeps(
  ws: string,
  llm: ProviderSettings,
  approver: Approver,
  signal: AbortSignal,
  risk: RiskOverrides = {},
  onEvent: (e: PipelineEvent) => void = stderrEvents('info'),
  scale: ScaleSettings = {},
): Promise<PipelineDeps> {
  const provider = createProvider({ log: (line) => err(`amtp: ${line}`), ...llm });
  return runDeps({ workspace: ws, provider, endpoint: endpointOf(llm), scale, approver, risk, signal, onEvent });
}

function envNumber(name: string): number | undefined {
  const n = Number(process.env[name]);
  return process.env[name] && Number.isInteger(n) && n > 0 ? n : undefined;
}

/** `--verbose` / `--quiet`: how much of a run's own lines stderr shows (core/log.ts). */
export function logLevelOf(v: { verbose?: boolean; quiet?: boolean }): LogLevel {
  return v.verbose ? 'debug' : v.quiet ? 'warn' : 'info';
}

/** A run's events on stderr, down to `threshold`: a batch's model call is a debug line. */
export function stderrEvents(threshold: LogLevel): (e: PipelineEvent) => void {
  return (e) => {
    if (e.type === 'activity' && shows(threshold, 'debug')) err(`amtp: ${e.agent} (attempt ${e.attempt})`);
    else if (e.type === 'log' && shows(threshold, e.level)) err(`amtp: ${e.level}: ${e.message}`);
  };
}
