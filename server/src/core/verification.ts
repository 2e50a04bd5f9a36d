// The verifier's part of the run record: its parameters, each case's result, the filter steps,
// repairs, coverage rounds and coverage. Types only (plus the defaults); core/run.ts re-exports them.
import type { Framework } from './frameworks';
import type { MutationParams, MutationRecord } from './mutation';
import type { TokenUsage } from './usage';

/** How the workspace code a run executes is confined (server/src/frameworks/run/confine.ts, docs/security.md). */
export interface Confinement {
  /** `namespace`: a network namespace with loopback only; `node-guard`: Node processes refuse other hosts */
  network: 'namespace' | 'node-guard';
  /** one line for people */
  detail: string;
}

/** What the verifier does; persisted in RunParams so a resumed or approved run verifies the same way. */
export interface VerifyParams {
  enabled: boolean;
  /** a test is kept only if it passes this many runs in a row */
  runs: number;
  /** wall-clock limit of one runner invocation; the process group is killed after it */
  timeoutSeconds: number;
  /** repair sessions per failing test (LLM providers only) */
  repairAttempts: number;
  /** above this many candidate tests, coverage contribution is measured per file instead of per test */
  maxCoverageRuns: number;
  /** coverage-guided rounds after verification (LLM providers only; verifier/rounds.ts); absent: none */
  rounds?: number;
  /** the prompt tokens all rounds may spend together */
  roundTokens?: number;
  /** mutation analysis of the files under test (docs/mutation.md); absent = off (runs made before it, library callers) */
  mutation?: MutationParams;
}

export const DEFAULT_VERIFY: VerifyParams = {
  enabled: true,
  runs: 3,
  timeoutSeconds: 120,
  repairAttempts: 2,
  maxCoverageRuns: 60,
  rounds: 2,
  roundTokens: 50_000,
};

export type CaseOutcome = 'passing' | 'flaky' | 'quarantined' | 'dropped' | 'failing';

export interface CaseResult {
  caseId: string;
  outcome: CaseOutcome;
  /** why it is not passing (always set unless passing), or how it came to pass (repaired) */
  reason?: string;
  /** the test's name as the runner reported it */
  test?: string;
  /** where the test lives now (the quarantine file for quarantined tests) */
  file?: string;
  line?: number;
  /** which filter removed it */
  step?: FilterStepName;
  /** repair sessions used for this test */
  repairs?: number;
  /** a documentation issue: a documented example that throws where its docs show a value (server/src/verifier/classify.ts), or a quarantined test the person answered "docs are wrong" (app/docsWrong.ts); reported apart from possible bugs */
  docIssue?: DocIssue;
  /** a quarantined possible bug: the documented call, the value its docs show and the value it returned */
  finding?: DocIssue;
  /** for a test the keep filter dropped: the rule that dropped it */
  rule?: KeepRule;
  /** the person accepted this test and this run wrote it again as it was: never repaired, removed, quarantined or tidied */
  accepted?: boolean;
}

export interface DocIssue {
  symbol: string;
  file: string;
  /** the documented call and the value its docs show */
  call: string;
  documented: string;
  /** what the call threw instead (`TypeError: …`) */
  error?: string;
  /** what the call returned instead, when known */
  actual?: string;
  /** where the docs show it (`README.md:12+3`, `index.js:4`) */
  where?: string;
  /** set when the person said the docs are wrong (a quarantined test's answer), with their note */
  reportedBy?: 'person';
  note?: string;
}

type FilterStepName = 'loads' | 'passes_every_run' | 'adds_coverage';

/**
 * The keep filter's rule (step adds_coverage): `existence_only` drops a test that covers nothing beyond
 * loading its file; `unique_coverage` keeps a test that covers a unit no kept test covers (mutation off);
 * `unique_coverage_or_kill` also keeps one that kills a mutant no kept test kills (mutation on).
 */
export type KeepRule = 'existence_only' | 'unique_coverage' | 'unique_coverage_or_kill';

export interface FilterStep {
  step: FilterStepName;
  /** tests that went through this filter and stayed */
  kept: number;
  /** tests this filter removed from the suite */
  dropped: number;
  /** tests this filter moved to a quarantine file instead (possible bugs) */
  quarantined?: number;
  /** names of the removed (and quarantined) tests */
  names: string[];
  /** set when the filter could not be applied (e.g. no coverage tool) */
  skipped?: string;
  /** the keep filter's rule this run (adds_coverage only) */
  rule?: KeepRule;
}

export interface RepairRecord {
  caseId: string;
  attempt: number;
  outcome: 'fixed' | 'still_failing' | 'code_bug' | 'wrong_place' | 'cannot_fix' | 'invalid_reply';
  error?: string;
  artifactId?: string;
}

/** One coverage round: its batches (each a new session and a `round_batch` artifact) and the tests it added. */
export interface RoundRecord {
  round: number;
  /** functions with uncovered code (or surviving mutants) when it started */
  targets: number;
  batches: {
    index: number;
    key: string;
    requestTokens: number;
    status: 'done' | 'failed' | 'skipped';
    artifactId?: string;
    /** new tests the reply held, and those kept (passed every run and covered something new or killed a mutant) */
    written: number;
    kept: number;
    error?: string;
  }[];
  kept: number;
}

export interface VerificationRecord {
  status: 'running' | 'done' | 'skipped' | 'awaiting_approval' | 'rejected';
  reason?: string;
  framework?: Framework;
  /** AMTP's own module loader ran the tests (TypeScript, JSON imports): what the project's own command needs to run them */
  loaderNote?: string;
  /** runs required per test (N) */
  runs: number;
  /** runner invocations made */
  executions: number;
  /** wall seconds of each verifier phase (run, place, judge, mutation, coverage, rewrite, confirm, rounds) */
  phases?: Record<string, number>;
  /** how the tests it ran were confined */
  confinement?: Confinement;
  filters: FilterStep[];
  results: CaseResult[];
  /** percent of coverage units (statements, branches, functions; Python: lines, arcs) of the files under test */
  coverage?: {
    before?: number;
    after?: number;
    tool?: string;
    skipped?: string;
    /** percent of statements (Python: lines) of the files under test covered by the kept suite */
    statements?: number;
    /** percent of branch arms (Python: arcs, with coverage.py) */
    branches?: number;
    /** percent of the statements that loading the test files leaves uncovered which the tests cover (server/src/coverage/beyondImport.ts) */
    beyondImport?: number;
    /** product source files the figures are counted over (the crawler's, in the runner's language; server/src/verifier/productFiles.ts) */
    productFiles?: number;
    /** product files no kept test reaches (not even by loading them), in path order */
    untestedFiles?: string[];
    /** product files left out of the figures as copies of a module the package ships twice, the copy the tests reached most counted (server/src/coverage/copies.ts) */
    copiesLeftOut?: string[];
    /** the kept suite's istanbul coverage map (JavaScript), for --lcov / --cobertura */
    map?: Record<string, unknown>;
  };
  /** mutation analysis of the files under test by the tests that passed every run (docs/mutation.md) */
  mutation?: MutationRecord;
  repairs: RepairRecord[];
  quarantineFiles: string[];
  /** the project's own Prettier/ESLint (ruff, black) run over the kept files, and what did not pass (frameworks/run/projectStyle.ts) */
  style?: { tool: 'prettier' | 'eslint' | 'ruff' | 'black'; files: string[]; passed: boolean; problems?: string }[];
  /** P0/P1 cases with neither a passing test nor a recorded reason */
  unmet: { caseId: string; priority: string; title: string; reason?: string }[];
  /** process-group ids of every runner started (for audits and orphan checks) */
  pids: number[];
  /** write-ahead log of the files the verifier wrote, so a re-verification can restore them */
  writes: { path: string; sha256: string | null }[];
  /** smoke cases whose written test calls its target and asserts on it: behaviour checks, never counted as existence checks */
  behaviourChecks?: string[];
  /** coverage rounds after verification (verifier/rounds.ts), and why they stopped before their number */
  rounds?: RoundRecord[];
  roundsStopped?: string;
  /** tokens of the verifier's own model sessions: repairs and coverage rounds (they count in the run's usage) */
  usage?: { repair?: TokenUsage; rounds?: TokenUsage };
  /** test files the runner did not collect where they were written: moved (to) where it does, or why not */
  places?: { file: string; to?: string; reason: string }[];
  /** files a person approved with a diff that verification then took tests out of (verifier/approvedDiffs.ts) */
  afterApproval?: ApprovedDiffNote[];
  /** the text of each test AMTP left in its files when verification ended: the next run finds the ones a person changed (verifier/keptTexts.ts) */
  keptTexts?: KeptText[];
}

export interface KeptText {
  file: string;
  caseId: string;
  text: string;
}

/** What an approved diff showed and what landed: the tests verification took out of the file, each with its verdict. */
export interface ApprovedDiffNote {
  file: string;
  approvalId: string;
  /** tests the approved diff showed, and how many of them the file holds now */
  shown: number;
  kept: number;
  /** the file was removed: none of its tests passed */
  removed?: true;
  dropped: {
    caseId?: string;
    title: string;
    /** the verifier's verdict (absent when it gave none: the test is gone all the same) */
    outcome?: CaseOutcome;
    reason?: string;
    /** a quarantined test's new place: the skipped quarantine file */
    movedTo?: string;
  }[];
}
