// The data the server shows the client about runs (the Test Cases tree, the run view): part of
// server/src/protocol.ts, which re-exports it; kept apart so each file holds one job. Type-only.
import type { Depth, FrameworkChoice } from './core/frameworks';
import type { MutationView } from './core/mutation';
import type { ApprovedDiffNote, DocIssue, RunLesson, VerificationRecord } from './core/run';
import type { Risk, ToolName } from './core/risk';
import type { RunStatus } from './core/status';
import type { RunHealth, RunUsage } from './core/usage';

/** passing/failing/flaky/quarantined/dropped come from the verifier (flaky and dropped tests are removed from the files; quarantined ones are skipped in a quarantine file) */
export type CaseStatus = 'planned' | 'written' | 'passing' | 'failing' | 'not_written' | 'flaky' | 'quarantined' | 'dropped';

export interface CaseView {
  id: string;
  title: string;
  priority: 'P0' | 'P1' | 'P2' | 'P3';
  kind: string;
  target: { file: string; symbol: string };
  status: CaseStatus;
  /** why a case was not written, or why it failed, was dropped or quarantined */
  reason?: string;
  /** the test file that holds this case, workspace-relative, and the 0-based line of its test */
  testFile?: string;
  testLine?: number;
  /** the test's own name in that file (its title; Python: the function name), which a runner's name filter selects */
  testName?: string;
  /** a characterization case: it pins what the code did when AMTP ran it, not documented behaviour (never a possible bug) */
  pinned?: boolean;
  /** a kept test's confidence in [0, 1] (docs/confidence.md), and whether it waits for review below the run's threshold */
  confidence?: number;
  awaitingReview?: boolean;
}

export interface RunView {
  runId: string;
  status: RunStatus;
  stage: string;
  reason?: string;
  createdAt: string;
  /** `scope`: what a scoped run was asked for (`--only src/a.js#f`, `--changed-since main`); absent for the whole workspace */
  params: { depth: Depth; framework: FrameworkChoice; provider: string; scope?: string };
  activities: { agent: string; status: string; attempts: number; errors: { kind: string; message: string }[] }[];
  cases: CaseView[];
  /** `acceptedKept`: tests the person accepted that the run would have changed, left as they were (the change was not approved) */
  files: { path: string; action: string; caseIds: string[]; acceptedKept?: string[] }[];
  /** the framework the engineer wrote for, and the command that runs its files */
  framework?: string;
  testCommand?: string;
  pendingApprovals: ApprovalParams[];
  /** what the verifier ran and kept (absent when the run has no verify stage) */
  verification?: VerificationView;
  /** tokens per agent and for the run, and their cost with a price table */
  usage?: RunUsage;
  /** per agent wall time, attempts, error ratio and tokens */
  health?: RunHealth;
  /** the person's earlier decisions as this run applied them: cases held back, quarantine answers (a "docs are wrong" is a documentation issue) */
  decisions?: {
    heldBack: { caseId: string; verdict: string; reason?: string }[];
    answered: { caseId: string; verdict: string; reason?: string }[];
  };
  /** the confidence gate: the threshold and how many kept tests wait for review (docs/confidence.md) */
  confidence?: { threshold: number; awaiting: number };
}

interface VerificationView {
  status: 'running' | 'done' | 'skipped' | 'awaiting_approval' | 'rejected';
  reason?: string;
  /** AMTP's own module loader ran the tests (TypeScript, JSON imports): what the project's own command needs */
  loaderNote?: string;
  runs: number;
  filters: { step: string; kept: number; dropped: number; quarantined?: number; names: string[]; skipped?: string }[];
  /** the run record's figures without the map, `productFiles` and `untestedFiles` included */
  coverage?: Omit<NonNullable<VerificationRecord['coverage']>, 'map'>;
  quarantineFiles: string[];
  /** documentation issues, apart from possible bugs: documented examples that throw (the error), quarantined tests the person answered "docs are wrong" (reportedBy, note, the value returned) */
  docIssues?: ({ caseId: string } & DocIssue)[];
  unmet: { caseId: string; priority: string; title: string; reason?: string }[];
  /** files the person approved with a diff that verification then took tests out of: each test gone and why (a warning) */
  afterApproval?: ApprovedDiffNote[];
  /** mutation analysis: the score per file (the Test Cases view) and the surviving mutants (diagnostics on their lines) */
  mutation?: MutationView;
}

export interface ApprovalParams {
  runId: string;
  approvalId: string;
  tool: ToolName;
  risk: Risk;
  summary: string;
  target?: string;
  /** for file writes: current text (null for a new file) and proposed text */
  diff?: { path: string; before: string | null; after: string };
}

/** A lesson for the next run (schemas/lesson.schema.json): a person's decision about a test, or a repair that gave up. */
export type LessonView = RunLesson;
export interface LessonsResult {
  /** newest first */
  lessons: LessonView[];
}
export interface ForgetLessonParams {
  /** the lesson's case id; only a decision's lesson can be forgotten (a failed repair's ages out with its run) */
  id: string;
}

export interface ReviewParams {
  runId: string;
  /** the person's decisions about single tests of the run (server/src/app/review.ts) */
  decisions: { caseId: string; verdict: 'accepted' | 'rejected' | 'real_bug' | 'docs_wrong' | 'wrong_test'; reason?: string }[];
}
export interface ReviewResult {
  decided: { caseId: string; verdict: string; reason?: string }[];
  /** tests removed from their files now, by file */
  removed: { file: string; caseIds: string[] }[];
  /** quarantined tests marked skipped with the person's note, by file */
  skipped: { file: string; caseIds: string[] }[];
  /** quarantined tests answered "docs are wrong": now documentation issues of the run */
  docIssues?: ({ caseId: string } & DocIssue)[];
}

// The Testing view: test runs, their results and coverage, and the tests test files hold.

export interface RunTestsParams {
  /** the run whose written tests to run (default: the newest run that wrote tests) */
  runId?: string;
  /** only these cases (default: every written case of the run) */
  caseIds?: string[];
  /** with caseIds: also these tests a person wrote in the run's files; with files: only these tests of those files */
  ownTests?: OwnTest[];
  /**
   * the person's own test files (none of the run's): run these with the project's test runner instead
   * of the run's files; the run only records the approval and audit
   */
  files?: string[];
  /** measure what the tests cover in the files under test (the Testing view's Coverage profile) */
  coverage?: boolean;
}
/** What a test run covered in one source file, for the Testing view (0-based lines). */
export interface FileCoverageView {
  /** workspace-relative source file */
  path: string;
  /** each statement's first line and how many times it ran */
  statements: { line: number; character: number; count: number }[];
  /** each branch arm's first line and whether it ran */
  branches: { line: number; character: number; covered: boolean }[];
}
export interface TestCaseResult {
  caseId: string;
  outcome: 'passing' | 'failing' | 'skipped';
  /** the runner's failure message, whole */
  message?: string;
}
/** A test a person wrote in a test file: its file, its own name (title; Python: function name) and the describe (class) names around it. */
export interface OwnTest {
  file: string;
  name: string;
  suites: string[];
}
export interface OwnTestResult extends OwnTest {
  outcome: 'passing' | 'failing' | 'skipped';
  message?: string;
}
export interface RunTestsResult {
  runId: string;
  framework: string;
  exitCode: number | null;
  timedOut: boolean;
  results: TestCaseResult[];
  /** the person's own tests in the run's files that ran */
  ownResults?: OwnTestResult[];
  /** the runner's console output (the last 64 KiB), for the test output view */
  output: string;
  /** with coverage asked for: per source file (JavaScript runners; Python gives none yet) */
  coverage?: FileCoverageView[];
}
export interface FileTestsParams {
  /** workspace-relative test files */
  files: string[];
}
export interface FileTestsResult {
  /** per readable file: its tests in file order (`caseId` on AMTP's; `line` 0-based) */
  files: { file: string; tests: { caseId?: string; name: string; suites: string[]; line: number }[] }[];
}
export interface WorkspaceTestFilesResult {
  /** workspace-relative test files, sorted: those the project's test command runs (at most a few hundred) */
  files: string[];
  /** more files matched than are listed, or the workspace was too large to walk whole */
  truncated: boolean;
  /** how the files were chosen, e.g. `mocha (package.json mocha.spec)` or `test file names` */
  source: string;
}
