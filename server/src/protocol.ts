/**
 * THE custom messages between the VS Code client and the AMTP language server.
 * Method names are plain strings (client and server use different vscode-jsonrpc
 * majors, so RequestType objects are not shared). Both sides import this file;
 * it must stay free of runtime dependencies.
 */

export type Depth = 'smoke' | 'standard' | 'deep';
export type FrameworkChoice = 'auto' | 'jest' | 'vitest' | 'mocha' | 'node-test' | 'pytest';
export type RunStatus = 'running' | 'completed' | 'needs_review' | 'awaiting_approval' | 'failed' | 'cancelled';
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
}

export interface RunView {
  runId: string;
  status: RunStatus;
  stage: string;
  reason?: string;
  createdAt: string;
  params: { depth: Depth; framework: FrameworkChoice; provider: string };
  activities: { agent: string; status: string; attempts: number; errors: { kind: string; message: string }[] }[];
  cases: CaseView[];
  files: { path: string; action: string; caseIds: string[] }[];
  /** the framework the engineer wrote for, and the command that runs its files */
  framework?: string;
  testCommand?: string;
  pendingApprovals: ApprovalParams[];
  /** what the verifier ran and kept (absent when the run has no verify stage) */
  verification?: VerificationView;
}

export interface VerificationView {
  status: 'running' | 'done' | 'skipped' | 'awaiting_approval' | 'rejected';
  reason?: string;
  runs: number;
  filters: { step: string; kept: number; dropped: number; quarantined?: number; names: string[]; skipped?: string }[];
  coverage?: { before?: number; after?: number; tool?: string; skipped?: string };
  quarantineFiles: string[];
  unmet: { caseId: string; priority: string; title: string }[];
}

/** Sent from the client to the server: start a run on the workspace. */
export const Generate = 'amtp/generate';
export interface GenerateParams {
  depth: Depth;
  framework: FrameworkChoice;
  /** LSP work-done progress token created by the client: stage and case counts are reported on it until the run ends */
  workDoneToken?: string;
}
export interface GenerateResult {
  runId: string;
}

/** Sent from the client to the server: crawl only (allowed in untrusted workspaces). */
export const Crawl = 'amtp/crawl';
export interface CrawlResult {
  project: string;
  files: number;
  languages: { name: string; files: number }[];
  testFramework: string;
  testDirs: string[];
  entryPoints: string[];
  keyFiles: number;
  examples: number;
  skipped: number;
}

/** Sent from the client to the server: what the crawler would detect, to preselect the framework. */
export const Detect = 'amtp/detect';
export interface DetectResult {
  framework: FrameworkChoice;
  language: string;
}

/** Sent from the server to the client whenever a run's status, stage or cases change (drives the tree). */
export const RunChanged = 'amtp/runChanged';
export interface RunChangedParams {
  run: RunView;
}

/** Sent from the server to the client: ask a person to decide a high-risk action; the answer unblocks the run. */
export const RequestApproval = 'amtp/requestApproval';
export interface ApprovalParams {
  runId: string;
  approvalId: string;
  tool: string;
  risk: 'low' | 'medium' | 'high';
  summary: string;
  target?: string;
  /** for file writes: current text (null for a new file) and proposed text */
  diff?: { path: string; before: string | null; after: string };
}
export interface ApprovalResult {
  decision: 'approved' | 'rejected' | 'timeout';
  note?: string;
}

/** Sent from the client to the server: cancel a running run. */
export const Cancel = 'amtp/cancel';
export interface RunIdParams {
  runId: string;
}

/** Sent from the client to the server: continue a run from its last committed boundary. */
export const Resume = 'amtp/resume';
export interface ResumeParams {
  runId: string;
  workDoneToken?: string;
}

/** Sent from the client to the server: list the workspace's runs, newest last. */
export const Runs = 'amtp/runs';
export interface RunsResult {
  runs: RunView[];
}

/** Sent from the client to the server: the API key from SecretStorage (null clears it). Never logged. */
export const SetCredentials = 'amtp/setCredentials';
export interface SetCredentialsParams {
  apiKey: string | null;
}

/** Sent from the client to the server: verify a recording's determinism (two replays). */
export const VerifyDeterminism = 'amtp/verifyDeterminism';
export interface VerifyDeterminismParams {
  file: string;
}
export interface VerifyDeterminismResult {
  identical: boolean;
  summary: string;
  diff?: string;
}

/** initializationOptions the client sends at startup. */
export interface InitOptions {
  /** Workspace Trust: when false the server only crawls; no writes, no test runs */
  trusted: boolean;
  settings: ServerSettings;
}

/** Sent from the client to the server when settings change (params: ServerSettings). */
export const SettingsChanged = 'amtp/settingsChanged';

/** Sent from the client to the server when the person grants Workspace Trust. */
export const TrustChanged = 'amtp/trustChanged';
export interface TrustChangedParams {
  trusted: boolean;
}

export interface ServerSettings {
  provider: 'offline' | 'openai';
  baseURL?: string;
  model?: string;
  models?: { crawler?: string; generator?: string; engineer?: string };
  temperature?: number;
  seed?: number;
  defaultFramework?: FrameworkChoice;
  defaultDepth?: Depth;
  /** per-tool risk overrides, e.g. {"tests.run": "medium"} */
  riskOverrides?: Record<string, 'low' | 'medium' | 'high'>;
  approvalTimeoutSeconds?: number;
  /** when set, every run is recorded to .amtp/recordings/<runId>.jsonl */
  record?: boolean;
  /** run the written tests and keep only assured ones (default true; needs trust and a tests.run approval) */
  verify?: boolean;
  /** runs a test must pass in a row (default 3) */
  verifyRuns?: number;
  /** wall-clock limit of one runner invocation, in seconds (default 120) */
  testTimeoutSeconds?: number;
}

