// The verifier's typed state, shared by its phases (verify.ts runs them in order:
// prepare → run → judge → measure coverage → rewrite → confirm → report).
import type { CrawlerOutput, EngineerOutput, TestCase, TestCases } from '../contracts/types';
import type { MutantProvider } from '../core/mutants';
import type { Gateway } from '../gateway/gateway';
import type { runTests } from '../frameworks/runner';
import type { LlmProvider } from '../llm/provider';
import type { RateGate } from '../pipeline/rateGate';
import type { RetryRules } from '../pipeline/retry';
import type { RunStore } from '../store/types';
import type { TestAccess } from '../pipeline/deps';
import type { CaseResult, RunRecord, VerificationRecord, VerifyParams } from '../core/run';
import type { CaseRunner } from './execute';
import type { PerTestMeasure } from './perTestRun';
import type { WriteLog } from './files';
import type { RunPlan } from './runPlan';
import type { ReportedValues } from '../frameworks/run/reportedValues';

export interface VerifyContext {
  workspace: string;
  run: () => RunRecord;
  store: RunStore;
  provider: LlmProvider;
  /** repairs and rounds ask the model under the run's one retry policy, and wait out a 429 together */
  retry: RetryRules;
  gate: RateGate;
  gateway: Gateway;
  plan: RunPlan;
  params: VerifyParams;
  engineer: EngineerOutput;
  engineerArtifactId: string;
  cases: TestCases;
  /** the engineer's test files that were written, in path order */
  files: EngineerOutput['files'];
  /** every product source file the crawler found in the runner's language: coverage is counted over them all (./productFiles.ts) */
  productFiles?: string[];
  log: WriteLog;
  signal?: AbortSignal;
  update: (mut: (v: VerificationRecord) => void) => Promise<void>;
  info: (message: string) => void;
  /** one line per test: shown with --verbose, and at VS Code's Debug level */
  debug: (message: string) => void;
  /** frameworks/runner.ts runTests unless a recording or a replay stands in (PipelineDeps.tests) */
  runTests?: typeof runTests;
  /** wraps each run of the mutation engine when a recording or a replay stands in (PipelineDeps.tests) */
  mutate?: TestAccess['mutate'];
  /** the crawler's map: each function's lines and source, for coverage rounds */
  map?: CrawlerOutput;
  mutants?: MutantProvider;
}

/** One test file as the verifier currently has it on disk, and the case ids of its tests. */
export interface TestFileState {
  path: string;
  content: string;
  ids: string[];
  /**
   * Set for the person's own test file this run added its cases to (`intoExisting`): only this run's
   * tests are ever removed or repaired in it, its imports stay, and the file itself is never removed.
   */
  personal?: PersonalFile;
}

export interface PersonalFile {
  /** the file before this run added to it, put back when none of this run's tests stays (unknown after a crash mid-write) */
  before?: string;
  /** the engineer's rendered file (this run's tests only): a quarantine file is cut from it, never from the person's */
  own: string;
}

interface FailingTest {
  file: TestFileState;
  message: string;
  /** the failing assertion's values as the runner's report gave them, when it did */
  reported?: ReportedValues;
}

/** The tests of one file that did not load, with what the runner said. */
export interface LoadFailure {
  file: TestFileState;
  ids: string[];
  message: string;
}

export interface VerifyState {
  ctx: VerifyContext;
  runner: CaseRunner;
  /** records the process groups and execution count seen so far */
  flushPids: () => Promise<void>;
  caseOf: Map<string, TestCase>;
  results: Map<string, CaseResult>;
  names: Map<string, string>;
  files: TestFileState[];
  /** tests written (with a case id) before any filter */
  written: number;
  loadFailures: LoadFailure[];
  /** files the runner never collected where they were written (placePhase.ts) */
  notCollected: LoadFailure[];
  failing: Map<string, FailingTest>;
  /** tests the person accepted that this run wrote again as they were: run and measured, never changed (acceptedTests.ts) */
  accepted: Set<string>;
  /** tests that passed every run, with their file */
  stable: { id: string; file: TestFileState }[];
  /** per-test coverage the first run took, where the runner gives it from its one process (perTestRun.ts) */
  measured?: PerTestMeasure;
}

export function nameOf(s: VerifyState, id: string): string {
  return s.names.get(id) ?? id;
}

export function drop(
  s: VerifyState,
  id: string,
  step: CaseResult['step'],
  reason: string,
  outcome: CaseResult['outcome'] = 'dropped',
): void {
  s.results.set(id, { caseId: id, outcome, step, reason, test: nameOf(s, id) });
}
