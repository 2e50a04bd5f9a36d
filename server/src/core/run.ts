// The run record: what the store persists for each run, and what every stage reads and updates.
// Types only (plus the verifier's defaults), so every layer can name them without importing logic.
import { DEFAULT_MAX_OUTPUT_TOKENS } from './providers';
import type { AgentId, ArtifactKind } from './agents';
import type { ContractError } from './errors';
import type { Depth, FrameworkChoice } from './frameworks';
import type { Risk, ToolName } from './risk';
import type { RunScope } from './scope';
import type { RunStatus } from './status';
import type { PriceTable, RunHealth, RunUsage, TokenUsage } from './usage';
import type { Confinement, VerificationRecord, VerifyParams } from './verification';

/** Provenance of a model's (or offline engine's) reply: one session's output. */
interface SessionMeta {
  sanitizer: 'v1.0.0';
  provider: string;
  model: string;
  seed: number;
  temperature?: number;
  promptHash: string;
  attempt: number;
}

/** Provenance of an agent's result that AMTP merged from its batches, in batch order. */
interface MergeMeta {
  merged_from: string[];
}

/** AMTP's own static analysis (kept so a resumed run plans the same batches from the same map), or what running the code showed. */
interface SourceMeta {
  source: 'static-analysis' | 'execution';
}

export type ArtifactMeta = SessionMeta | MergeMeta | SourceMeta;

export interface Artifact {
  id: string;
  runId: string;
  kind: ArtifactKind;
  /** an agent's output, valid against its contract (store/base.ts agentOutput gives it its type) */
  content: object;
  meta: ArtifactMeta;
}

export interface ActivityError {
  kind: string;
  message: string;
  attempt: number;
  at: string;
  /** ajv errors for SchemaValidationError, kept so a person can see what broke */
  details?: ContractError[];
  /** first bytes of the offending reply (never a secret: replies come from the model) */
  excerpt?: string;
  /** the batch (1-based) the error happened in, when the agent works in batches */
  batch?: number;
}

/** One bounded unit of an agent's work: its own session(s), envelope, validation and artifact. */
export interface BatchRecord {
  /** 1-based, in plan order; results are merged in this order whatever order batches finish in */
  index: number;
  /** what the batch covers (e.g. the module paths), stable across resumes */
  key: string;
  /** `split`: its reply did not fit the output bound, so its work was cut into two halves (`parts`) */
  status: 'pending' | 'running' | 'completed' | 'failed' | 'needs_review' | 'split';
  attempts: number;
  errors: ActivityError[];
  artifactId?: string;
  /** estimated tokens of the request (system prompt + envelope) */
  requestTokens: number;
  /** a half of a split batch: the batch it came from */
  parent?: number;
  /** which half, from the planned batch down: "1", "2", "1.2" (the second half of the first half) */
  part?: string;
  /** a split batch's two halves, in order */
  parts?: [number, number];
  startedAt?: string;
  endedAt?: string;
}

export interface ActivityRecord {
  agent: AgentId;
  status: 'pending' | 'running' | 'completed' | 'failed' | 'needs_review';
  attempts: number;
  errors: ActivityError[];
  artifactId?: string;
  model?: string;
  startedAt?: string;
  endedAt?: string;
  /** the agent's batches (absent for runs recorded before batching) */
  batches?: BatchRecord[];
  /** the crawler's source: AMTP's static map, kept so a resumed run plans the same batches */
  sourceArtifactId?: string;
  /** tokens of every reply of every attempt (a malformed or cut reply is paid for too) */
  usage?: TokenUsage;
}

export type Decision = 'approved' | 'rejected' | 'timeout' | 'pending' | 'auto';

export interface ApprovalRecord {
  id: string;
  tool: ToolName;
  risk: Risk;
  summary: string;
  target?: string;
  decision: Decision;
  note?: string;
  decidedBy?: string;
  requestedAt: string;
  decidedAt?: string;
  /** an HMAC of the decision and what it covers, under the person's owner key (store/ownership.ts) */
  seal?: string;
}

export interface AuditRow {
  at: string;
  /** the tool, or settings.ignored: a repository setting that tried to steer the run and was ignored */
  tool: ToolName | 'settings.ignored';
  risk: Risk;
  target?: string;
  outcome: 'executed' | 'refused' | 'failed';
  approvalId?: string;
  detail?: string;
}

export type FileAction = 'created' | 'overwritten' | 'merged' | 'unchanged' | 'rejected' | 'pending' | 'failed';

/** The actions after which the file on disk holds what the run wrote. */
export const WRITTEN_ACTIONS: ReadonlySet<FileAction> = new Set<FileAction>(['created', 'overwritten', 'merged', 'unchanged']);

export function isWritten(action: FileAction | undefined): boolean {
  return action !== undefined && WRITTEN_ACTIONS.has(action);
}

interface FileRecord {
  path: string;
  action: FileAction;
  caseIds: string[];
  sha256?: string;
  /**
   * For a file merged into (even when the merge changed nothing), the text on disk, the file's earlier
   * tests and the run's own: the verifier
   * works on it and restores it on resume, as it does with the engineer's text for a new file.
   */
  written?: string;
  /**
   * For the person's own test file this run merged its cases into (`--into-existing`), the file as it
   * was before: the verifier removes only this run's tests from it and puts this text back when none stays.
   */
  before?: string;
  /** the write a person approved with a diff: the tests that diff showed (verifier/approvedDiffs.ts compares them with what lands) */
  approved?: { approvalId: string; tests: ShownTest[] };
  /** tests the person accepted that this run would have changed, left as they were because the change was not approved */
  acceptedKept?: string[];
  /**
   * tests the person accepted that this run wrote again exactly as they were: the verifier runs and
   * measures them but never changes them (server/src/verifier/acceptedTests.ts)
   */
  acceptedSame?: string[];
}

/** A test an approved diff showed: its case id (AMTP's tests) and its name in the file. */
export interface ShownTest {
  caseId?: string;
  title: string;
}

export interface RunParams {
  depth: Depth;
  framework: FrameworkChoice;
  provider: string;
  models: Record<AgentId, string>;
  seed: number;
  temperature: number;
  maxAttempts: number;
  /** the verifier's settings; absent = no verify stage (library callers, replays) */
  verify?: VerifyParams;
  /** how LLM work is cut into batches (absent in runs made before batching: the defaults apply) */
  batching?: BatchParams;
  /** after a completed run, create a branch with one commit of the kept files (`git.branch`, high risk) */
  commit?: boolean;
  /** some files and symbols instead of the whole workspace */
  scope?: RunScope;
  /** add the cases to the person's own test file of the module when there is one (`--into-existing`; fs.overwrite, high risk) */
  intoExisting?: boolean;
  /** USD per million tokens by model, when the person gave a price table; kept so a resume prices the same way */
  prices?: PriceTable;
  /** set when `prices` is AMTP's default table: the date its prices were published (usage/defaultPrices.ts) */
  pricesAsOf?: string;
  /** run exported functions with no documented result to pin what they do (docs/characterization.md); absent = off */
  characterize?: boolean;
  /** what earlier decisions and failed repairs teach this run, taken when it started (pipeline/lessons.ts; schemas/lesson.schema.json) */
  lessons?: RunLesson[];
  /** the person's per-test decisions as they stood when the run started (pipeline/decisionStage.ts), kept so a resume and a replay hold back the same cases */
  decided?: RunDecided;
  /** the offline search's time budget in seconds (`--search-budget`, docs/search.md); absent = 60 */
  searchBudget?: number;
  /** kept tests below this confidence wait for review (`--confidence-threshold`, docs/confidence.md); absent = 0.75 */
  confidenceThreshold?: number;
  /** `--accept-low-confidence`: tests below the threshold are kept without review */
  acceptLowConfidence?: boolean;
}

/** This person's sealed decisions that act on a run, taken when it started. */
export interface RunDecided {
  decisions: {
    caseId: string;
    verdict: 'accepted' | 'rejected' | 'deleted' | 'real_bug' | 'docs_wrong' | 'wrong_test' | 'edited';
    reason?: string;
    sourceHash?: string;
    /** what the test checks, apart from its words (pipeline/decisions.ts behaviorOf) */
    behavior?: string;
    /** a test changed by hand whose expected value the person replaced: later cases of this call expect theirs (pipeline/testPlan.ts) */
    correction?: { file: string; symbol: string; call: string; expected: string };
  }[];
  /** tests of earlier runs found gone from AMTP's files when the run started: recorded as deleted by hand */
  detected: string[];
  /** tests of earlier runs found changed in AMTP's files when the run started: recorded as edited by hand */
  edited?: string[];
  /** decision files left aside: not taken by this person here, or unreadable */
  ignored: number;
}

/** One lesson (schemas/lesson.schema.json): one line tied to a module and symbol, with its source and date. */
export interface RunLesson {
  id: string;
  source: 'rejected' | 'deleted' | 'wrong_test' | 'real_bug' | 'docs_wrong' | 'repair_failed' | 'edited';
  file?: string;
  symbol?: string;
  text: string;
  at: string;
}

/** Every request and reply fits these budgets, whatever the repository's size. */
export interface BatchParams {
  /** most tokens of one request: system prompt plus envelope (estimated: UTF-8 bytes / 4) */
  inputTokens: number;
  /** most tokens one reply may use (sent as the request's output bound) */
  outputTokens: number;
  /** independent batches in flight at once */
  concurrency: number;
}

export const DEFAULT_BATCHING: BatchParams = { inputTokens: 8000, outputTokens: DEFAULT_MAX_OUTPUT_TOKENS, concurrency: 4 };

export interface SealedRisks {
  overrides: Partial<Record<ToolName, Risk>>;
  seal: string;
}

export interface RunRecord {
  schema_version: 1;
  id: string;
  /** bumped on every write: a stale writer is detected instead of losing an update */
  version: number;
  status: RunStatus;
  stage: AgentId | 'characterize' | 'write' | 'verify' | 'done';
  createdAt: string;
  updatedAt: string;
  params: RunParams;
  activities: ActivityRecord[];
  files: FileRecord[];
  approvals: ApprovalRecord[];
  audit: AuditRow[];
  /** proof that this person created the run in this workspace (store/ownership.ts) */
  owner?: string;
  /** the person's own risk overrides the run started with (--risk, user settings), sealed: `amtp approve` and `resume` go on under them */
  risks?: SealedRisks;
  /** why the run stopped where it did, for people */
  reason?: string;
  /** what the verifier ran, kept and dropped (server/src/verifier) */
  verification?: VerificationRecord;
  /** what the characterize stage ran and pinned (server/src/characterize/stage.ts) */
  characterization?: CharacterizationRecord;
  /** token sums per agent and for the run (server/src/usage), refreshed whenever an activity changes */
  usage?: RunUsage;
  /** per-agent wall time, attempts, error ratio and tokens (server/src/usage/health.ts) */
  health?: RunHealth;
  /** the branch the `branch` stage created, or why it did not (server/src/git) */
  branch?: BranchRecord;
  /** what the person decided earlier about this run's planned cases (pipeline/decisionStage.ts); absent until that stage ran */
  decisions?: RunDecisions;
  /** each kept test's confidence and the ones below the threshold waiting for review (pipeline/confidenceStage.ts) */
  confidence?: ConfidenceRecord;
  /** wall seconds each stage took (crawler, generator, characterize, engineer, write, verify, …), summed over resumes */
  timings?: Record<string, number>;
  /** what this run took over from an earlier one instead of doing it again (app/incremental.ts) */
  reuse?: RunReuse;
  /** the content hash of each source file of the workspace when the run started: the next run compares with it (app/incremental.ts) */
  sources?: Record<string, string>;
  /** the AMTP that made the run (core/engine.ts): another one's results are never reused */
  engine?: string;
}

/** The confidence gate's outcome (docs/confidence.md). */
export interface ConfidenceRecord {
  threshold: number;
  /** every kept test: its confidence in [0, 1] and what it rests on */
  tests: { caseId: string; confidence: number; basis: string }[];
  /** kept tests below the threshold that wait for a person (amtp review --accept / --reject) */
  awaiting: { caseId: string; confidence: number; basis: string; title: string; file: string }[];
  /** below the threshold and let through: by an accepted decision, by --accept-low-confidence, or by review of this run */
  accepted: { caseId: string; by: 'decision' | 'flag' | 'review' }[];
  /** why no test waits although some are below the threshold: the tests were not verified (the gate judges what a run showed) */
  unverified?: string;
}

/** An incremental run (docs/architecture.md, "Incremental runs"): what changed since the earlier run, and what was reused. */
export interface RunReuse {
  /** the earlier completed run with the same settings this run starts from */
  from: string;
  /** product files whose content changed (or are new) since then, and those removed */
  changed: string[];
  removed: string[];
  /** the modules the changes reach: the changed files and the files that import them */
  reached: string[];
  /** product files whose planned cases, characterization and kept tests were taken over unchanged */
  reused: number;
  /** true when nothing changed: the earlier results stand and nothing ran */
  unchanged?: boolean;
}

/** The person's earlier per-test decisions as this run applied them. */
export interface RunDecisions {
  /** planned cases no test is written for: rejected, deleted by hand, or answered "the test is wrong" */
  heldBack: { caseId: string; verdict: 'rejected' | 'deleted' | 'wrong_test' | 'edited'; reason?: string }[];
  /** planned cases whose quarantine question was answered for the code as it is: not asked again */
  answered: { caseId: string; verdict: 'real_bug' | 'docs_wrong'; reason?: string }[];
  /** tests of earlier runs found gone from AMTP's files: recorded as deleted by hand */
  detectedDeletions: string[];
  /** tests of earlier runs found changed by hand in AMTP's files: kept as the person wrote them */
  detectedEdits?: string[];
  /** decision files left aside: not taken by this person here, or unreadable */
  ignored: number;
}

/** The outcome of `git.branch`: a new branch holding one commit of exactly the files the run kept. */
export interface BranchRecord {
  status: 'created' | 'skipped' | 'awaiting_approval' | 'rejected' | 'failed';
  reason?: string;
  /** the branch (refs/heads/<name>), set once created */
  name?: string;
  /** the new commit and the commit it was made on (the HEAD of the workspace's repository) */
  commit?: string;
  base?: string;
  /** repository-relative paths of the committed files */
  files: string[];
  /** the engineer's pull-request metadata the branch and commit were named from */
  title?: string;
  labels?: string[];
}

/** The characterize stage's progress: each module's result is its own artifact, saved as soon as it is done. */
export interface CharacterizationRecord {
  status: 'running' | 'done' | 'skipped' | 'awaiting_approval' | 'rejected';
  reason?: string;
  /** finished modules: a resumed run does not characterize them again */
  modules: { module: string; artifactId: string }[];
  /** every module's result merged: the cases the engineer gets beside the generator's plan */
  artifactId?: string;
  /** functions with no documented result that were characterized */
  targets: number;
  /** characterization cases kept (they replace the existence checks of their targets) */
  kept: number;
  /** how the code it ran was confined */
  confinement?: Confinement;
  /** existence-only cases replaced */
  replaced: number;
  stable: number;
  unstable: number;
  unusable: number;
  /** wall time of the stage, once done */
  seconds?: number;
  /** modules whose result came from the cache (characterize/cache.ts): nothing ran for them */
  cached?: number;
  /** what the search of call sequences did (JavaScript and TypeScript modules) */
  search?: SearchTotals;
  /** modules (any language) whose search the wall-clock safety stop ended early: what they kept depends on the machine's speed */
  clockCut?: string[];
}

export interface SearchTotals {
  budgetSeconds: number;
  modules: number;
  /** sequence runs the budget gave, and those done */
  runs: number;
  executed: number;
  /** statements and branches reached, of those in the files the runs loaded */
  reached: number;
  probes: number;
  /** runs never pinned for writing outside their folder, starting a process or trying the network */
  sideEffects: number;
  /** modules that did not load, with why */
  notLoaded: string[];
}

export * from './verification';
