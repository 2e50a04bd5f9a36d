// What a run is given: the workspace, the store, the model provider, the person's approver, the
// stages to run, and the hooks around them. Everything is handed in; nothing here is imported back.
import type { LogLevel } from '../core/log';
import type { FindTests } from './keptTests';
import type { AgentId } from '../core/agents';
import type { MutantProvider } from '../core/mutants';
import type { RunRecord } from '../core/run';
import type { CrawlerOutput } from '../contracts/types';
import type { Approver } from '../gateway/gateway';
import type { RiskPolicy } from '../gateway/policy';
import type { LlmProvider } from '../llm/provider';
import type { runTests } from '../frameworks/runner';
import type { BackoffPolicy } from './retry';
import type { Stage } from './stage';
import type { RunStore } from '../store/types';
import type { SharedRateLimit } from '../store/redis';

export type PipelineEvent =
  | { type: 'run'; run: RunRecord }
  | { type: 'activity'; runId: string; agent: AgentId; attempt: number; batch?: { index: number; count: number } }
  | { type: 'log'; level: LogLevel; message: string };

/** Records state transitions; LLM and tool events are recorded by wrapping the provider and tools. */
interface TransitionRecorder {
  transition(from: string | null, to: string, state: unknown): void;
}

export interface PipelineDeps {
  workspace: string;
  store: RunStore;
  provider: LlmProvider;
  approver: Approver;
  /** a test file's tests with their text, to find tests deleted or changed by hand when a run starts (app/stages.ts); absent: none are looked for */
  testsIn?: FindTests;
  /** the stages a run goes through, in order (app/stages.ts builds the standard list) */
  stages: readonly Stage[];
  /** static analysis through the workspace tools; injectable so replays need no workspace */
  crawl: (workspace: string) => Promise<CrawlerOutput>;
  backoff?: Partial<BackoffPolicy>;
  /** the 429 hold that other processes share for this endpoint and a model (`--cache`, `--queue`) */
  sharedLimit?: (model: string) => SharedRateLimit;
  /** who may change which risk: the person's own overrides, and the repository's (tighten only) */
  riskPolicy?: RiskPolicy;
  /** warnings about repository settings that were ignored; logged and audited at the start of every run */
  ignoredSettings?: readonly string[];
  signal?: AbortSignal;
  onEvent?: (e: PipelineEvent) => void;
  recorder?: TransitionRecorder;
  /** system prompts to send instead of this version's (a pinned replay of an older recording) */
  systemPrompts?: Partial<Record<AgentId, string>>;
  /** false when the workspace may not execute code (VS Code Restricted Mode); the verifier then runs nothing */
  canExecute?: () => boolean;
  /** how the verifier reaches the workspace; a recording taps it and a replay answers from it (server/src/record/testTap.ts) */
  tests?: TestAccess;
  /** how characterization runs workspace code; a recording taps it and a replay answers from it (server/src/record/charTap.ts) */
  charRuns?: CharRunAccess;
  /** surviving mutants per function, when a mutation engine is wired in: coverage rounds then aim at them too */
  mutants?: MutantProvider;
}

/** One module's characterization run (the sandbox executes its code), keyed by what identifies it on any machine. */
export interface CharRunAccess {
  run<T>(key: { module: string; targets: unknown }, root: string, exec: () => Promise<T>): Promise<T>;
}

/** The verifier's contact with the workspace: how tests run here, each test run, and each file it rewrites. */
export interface TestAccess {
  /** wraps the decision how tests run here (a JSON value) */
  plan<T>(decide: () => T): T;
  run: typeof runTests;
  /** told before the verifier writes (content) or removes (null) a file */
  wrote(path: string, content: string | null): void;
  /**
   * wraps one run of the mutation engine (the mutation phase, or a round's new test against known
   * survivors), keyed by what identifies it on any machine; a replay answers from the recording
   */
  mutate<T>(key: MutationRunKey, root: string, exec: () => Promise<T>): Promise<T>;
}

/** What identifies one mutation run: the tests (case id and file), the files mutated, the mutants asked for (null: all). */
export interface MutationRunKey {
  tests: { caseId: string; file: string }[];
  targets: string[];
  only: string[] | null;
}
