/**
 * THE custom messages between the VS Code client and the AMTP language server: one typed object per
 * message, used by both sides, as vscode-eslint shares its custom messages. Client
 * (vscode-languageclient) and server (vscode-languageserver) are pinned to the same release, so they
 * share one vscode-languageserver-protocol and these are the library's own RequestType and
 * NotificationType, each marked with the side that sends it (the library's MessageDirection).
 * Apart from that library, this file imports only types.
 */
import {
  MessageDirection,
  NotificationType,
  RequestType,
  type CancellationToken,
  type Disposable,
  type NotificationHandler,
  type RequestHandler,
} from 'vscode-languageserver-protocol';
import type { Depth, FrameworkChoice } from './core/frameworks';
import type { ProviderName } from './core/providers';
import type { Risk, ToolName } from './core/risk';
import type { RunStatus } from './core/status';
import type { ScaleUrls } from './core/settings';
import type { PriceTable, RunHealth, RunUsage } from './core/usage';

export type { Depth, FrameworkChoice, RunStatus, RunHealth, RunUsage };
export type {
  ApprovalParams,
  CaseStatus,
  CaseView,
  FileCoverageView,
  FileTestsParams,
  FileTestsResult,
  ForgetLessonParams,
  LessonsResult,
  LessonView,
  OwnTest,
  OwnTestResult,
  ReviewParams,
  ReviewResult,
  RunTestsParams,
  RunTestsResult,
  RunView,
  TestCaseResult,
  WorkspaceTestFilesResult,
} from './protocolViews';
import type {
  ApprovalParams,
  FileTestsParams,
  FileTestsResult,
  ForgetLessonParams,
  LessonsResult,
  ReviewParams,
  ReviewResult,
  RunTestsParams,
  RunTestsResult,
  RunView,
  WorkspaceTestFilesResult,
} from './protocolViews';

export { MessageDirection };

/** A request of this protocol: `P` in, `R` back, sent by one side only. */
export type Request<P, R> = RequestType<P, R, void> & { readonly messageDirection: MessageDirection };
export type Notification<P> = NotificationType<P> & { readonly messageDirection: MessageDirection };

const toServer = MessageDirection.clientToServer;
const toClient = MessageDirection.serverToClient;
const request = <P, R>(method: string, messageDirection: MessageDirection): Request<P, R> =>
  Object.assign(new RequestType<P, R, void>(method), { messageDirection });
const notification = <P>(method: string, messageDirection: MessageDirection): Notification<P> =>
  Object.assign(new NotificationType<P>(method), { messageDirection });

export interface GenerateParams {
  depth: Depth;
  framework: FrameworkChoice;
  /** some files and symbols instead of the whole workspace (CodeLens, "for This File", "for Selection") */
  scope?: { only?: string[]; changedSince?: string };
  /** add the cases to the person's own test file of each module when there is one (default: the amtp.intoExistingTestFile setting) */
  intoExisting?: boolean;
  /** LSP work-done progress token created by the client: stage and case counts are reported on it until the run ends */
  workDoneToken?: string;
}
export interface GenerateResult {
  runId: string;
}
/** Sent from the client to the server: start a run on the workspace. */
export const Generate = request<GenerateParams, GenerateResult>('amtp/generate', toServer);

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
/** Sent from the client to the server: crawl only (allowed in untrusted workspaces). */
export const Crawl = request<null, CrawlResult>('amtp/crawl', toServer);

export interface DetectResult {
  framework: FrameworkChoice;
  language: string;
}
/** Sent from the client to the server: what the crawler would detect, to preselect the framework. */
export const Detect = request<null, DetectResult>('amtp/detect', toServer);

export interface RunChangedParams {
  run: RunView;
}
/** Sent from the server to the client whenever a run's status, stage or cases change (drives the tree). */
export const RunChanged = notification<RunChangedParams>('amtp/runChanged', toClient);

export interface ApprovalResult {
  decision: 'approved' | 'rejected' | 'timeout';
  note?: string;
}
/** Sent from the server to the client: ask a person to decide a high-risk action; the answer unblocks the run. */
export const RequestApproval = request<ApprovalParams, ApprovalResult>('amtp/requestApproval', toClient);

export interface RunIdParams {
  runId: string;
}
/** Sent from the client to the server: cancel a running run. */
export const Cancel = request<RunIdParams, { cancelled: boolean }>('amtp/cancel', toServer);

export interface ResumeParams {
  runId: string;
  workDoneToken?: string;
}
/** Sent from the client to the server: continue a run from its last committed boundary. */
export const Resume = request<ResumeParams, GenerateResult>('amtp/resume', toServer);

export interface RunsResult {
  runs: RunView[];
}
/** Sent from the client to the server: list the workspace's runs, newest last. */
export const Runs = request<null, RunsResult>('amtp/runs', toServer);

export interface SetCredentialsParams {
  apiKey: string | null;
}
/** Sent from the client to the server: the API key from SecretStorage (null clears it). Never logged. */
export const SetCredentials = request<SetCredentialsParams, void>('amtp/setCredentials', toServer);

export interface VerifyDeterminismParams {
  file: string;
}
export interface VerifyDeterminismResult {
  identical: boolean;
  summary: string;
  diff?: string;
}
/**
 * Sent from the client to the server when the person runs the written tests (Run Generated Tests,
 * the Testing view): the project's runner with fixed arguments, the person's click as the approval.
 */
export const RunTests = request<RunTestsParams, RunTestsResult>('amtp/runTests', toServer);

export interface ExportedSymbolsParams {
  /** workspace-relative file */
  file: string;
}
export interface ExportedSymbolsResult {
  file: string;
  /** exported functions and classes, 1-based lines; a symbol runs to the line before the next one */
  symbols: { name: string; kind: string; line: number; endLine: number }[];
}
/** Sent from the client to the server: every test in these files, AMTP's and the person's own (the Testing view). Read-only. */
export const FileTests = request<FileTestsParams, FileTestsResult>('amtp/fileTests', toServer);
/** Sent from the client to the server: the workspace's test files, those the project's test command runs (the Testing view). Read-only. */
export const WorkspaceTestFiles = request<null, WorkspaceTestFilesResult>('amtp/workspaceTestFiles', toServer);

/** Sent from the client to the server: a file's exported functions and classes (CodeLens, "for Selection"). */
export const ExportedSymbols = request<ExportedSymbolsParams, ExportedSymbolsResult>('amtp/exportedSymbols', toServer);

/** A chat model that vscode.lm.selectChatModels offers. */
export interface LmModelInfo {
  id: string;
  name: string;
  vendor: string;
  family: string;
  version: string;
  maxInputTokens: number;
}
export interface LmModelsResult {
  models: LmModelInfo[];
}
/** Sent from the server to the client: list the VS Code language models (provider vscode-lm). */
export const LmModels = request<null, LmModelsResult>('amtp/lmModels', toClient);

export interface LmChatParams {
  agent: string;
  /** the model's id, as LmModels listed it */
  model: string;
  /** the agent's static system prompt and the canonical envelope: the session's only two messages */
  messages: { role: 'system' | 'user'; content: string }[];
  /** why AMTP wants the model, for VS Code's consent prompt */
  justification: string;
  /** the client gives up after this long without a text fragment */
  idleTimeoutMs: number;
  /** the client gives up after this long in all, however the text streams */
  deadlineMs: number;
  maxOutputTokens: number;
  /** the client stops reading once the text passes this many UTF-8 bytes and answers with `cut` */
  maxReplyBytes: number;
}
export interface LmChatResult {
  content?: string;
  model?: string;
  /** counted with the model's own tokenizer (vscode.lm reports no usage) */
  usage?: { promptTokens: number; completionTokens: number; cachedTokens?: number };
  /** the text went on past maxReplyBytes: `content` is what came before */
  cut?: boolean;
  error?: { kind: 'NoPermissions' | 'Blocked' | 'NotFound' | 'Cancelled' | 'Timeout' | 'Other'; message: string };
}
/** Sent from the server to the client: one agent request through vscode.lm (one request per session); cancellable. */
export const LmChat = request<LmChatParams, LmChatResult>('amtp/lmChat', toClient);

/** Sent from the client to the server: verify a recording's determinism (two replays). */
export const VerifyDeterminism = request<VerifyDeterminismParams, VerifyDeterminismResult>('amtp/verifyDeterminism', toServer);

/** Sent from the client to the server: the person keeps, rejects or answers single tests; the decisions hold in later runs. */
export const Review = request<ReviewParams, ReviewResult>('amtp/review', toServer);
/** Sent from the client to the server: the lessons the next run's generator and engineer will be told (the Lessons view). Read-only. */
export const Lessons = request<null, LessonsResult>('amtp/lessons', toServer);
/** Sent from the client to the server: forget the person's decision behind a lesson (a later run may write the test again). */
export const ForgetLesson = request<ForgetLessonParams, { forgotten: true }>('amtp/forgetLesson', toServer);

/** initializationOptions the client sends at startup. */
export interface InitOptions {
  /** Workspace Trust: when false the server only crawls; no writes, no test runs */
  trusted: boolean;
  settings: ServerSettings;
}

export interface TrustChangedParams {
  trusted: boolean;
}
/** Sent from the client to the server when the person grants Workspace Trust. */
export const TrustChanged = notification<TrustChangedParams>('amtp/trustChanged', toServer);

export interface ServerSettings extends ScaleUrls {
  provider: ProviderName;
  baseURL?: string;
  /** Azure OpenAI: resource URL (classic) or …/openai/v1 */
  azureEndpoint?: string;
  azureDeployment?: string;
  azureApiVersion?: string;
  /** extra headers for every request (OpenRouter's HTTP-Referer / X-Title, gateways) */
  headers?: Record<string, string>;
  /** idle seconds before a model request is given up (default 600) */
  modelTimeoutSeconds?: number;
  /** seconds in all before a model request is given up (default: derived from the idle timeout and the output bound) */
  modelDeadlineSeconds?: number;
  /** most tokens of one reply: batches are sized to it and every request carries it (default 4096) */
  maxOutputTokens?: number;
  /** ask for structured output (default true) */
  structuredOutput?: boolean;
  /** USD per million tokens by model */
  priceTable?: PriceTable;
  model?: string;
  models?: { crawler?: string; generator?: string; engineer?: string };
  temperature?: number;
  seed?: number;
  defaultFramework?: FrameworkChoice;
  defaultDepth?: Depth;
  /** per-tool risk overrides, e.g. {"tests.run": "medium"} */
  riskOverrides?: Partial<Record<ToolName, Risk>>;
  approvalTimeoutSeconds?: number;
  /** when set, every run is recorded to .amtp/recordings/<runId>.jsonl */
  record?: boolean;
  /** run the written tests and keep only assured ones (default true; needs trust and a tests.run approval) */
  verify?: boolean;
  /** runs a test must pass in a row (default 3) */
  verifyRuns?: number;
  /** run undocumented exported functions to pin what they do (default true; needs trust and the run's tests.run approval) */
  characterize?: boolean;
  /** time budget of the offline search of call sequences, in seconds (default 60; docs/search.md) */
  searchBudgetSeconds?: number;
  /** wall-clock limit of one runner invocation, in seconds (default 120) */
  testTimeoutSeconds?: number;
  /** mutate the files under test while verifying (default true; docs/mutation.md) */
  mutation?: boolean;
  /** wall-clock budget of the mutation phase, in seconds (unset: 60, shortened when the run would not end within two minutes) */
  mutationBudgetSeconds?: number;
  /** add the cases to the person's own test file of each module when there is one (an overwrite: asks with the diff) */
  intoExistingTestFile?: boolean;
  /** kept tests below this confidence wait for review (default 0.75; docs/confidence.md) */
  confidenceThreshold?: number;
  /** batch budgets: tokens of one request, and batches in flight at once */
  maxInputTokens?: number;
  concurrency?: number;
}

/** Sent from the client to the server when settings change. */
export const SettingsChanged = notification<ServerSettings>('amtp/settingsChanged', toServer);

/** Every message, for the tests that check both sides wire all of them. */
export const MESSAGES = [
  Generate,
  Crawl,
  Detect,
  RunChanged,
  RequestApproval,
  Cancel,
  Resume,
  Runs,
  RunTests,
  ExportedSymbols,
  FileTests,
  WorkspaceTestFiles,
  SetCredentials,
  VerifyDeterminism,
  Review,
  Lessons,
  ForgetLesson,
  TrustChanged,
  SettingsChanged,
  LmModels,
  LmChat,
] as const;

// What each side's connection offers (vscode-languageclient's LanguageClient, vscode-languageserver's
// Connection): the library's typed overloads, so params and results are checked against the message.

/** What a handler needs of a cancellation token: the library's and vscode's both offer it. */
export interface CancellationLike {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): unknown;
}

export interface RequestSender {
  sendRequest<P, R, E>(type: RequestType<P, R, E>, params: P, token?: CancellationToken): Promise<R>;
}
export interface NotificationSender {
  sendNotification<P>(type: NotificationType<P>, params?: P): Promise<void>;
}
export interface Receiver {
  onRequest<P, R, E>(type: RequestType<P, R, E>, handler: RequestHandler<P, R, E>): Disposable;
  onNotification<P>(type: NotificationType<P>, handler: NotificationHandler<P>): Disposable;
}

/** `token` (the library's CancellationToken or vscode's) sends $/cancelRequest when it is cancelled. */
export function sendRequest<P, R>(to: RequestSender, type: Request<P, R>, params: P, token?: CancellationToken): Promise<R> {
  return to.sendRequest(type, params, token);
}

export function sendNotification<P>(to: NotificationSender, type: Notification<P>, params: P): void {
  void to.sendNotification(type, params);
}

export function onRequest<P, R>(
  on: Receiver,
  type: Request<P, R>,
  handler: (params: P, token: CancellationLike) => R | Promise<R>,
): Disposable {
  return on.onRequest(type, handler as RequestHandler<P, R, void>);
}

export function onNotification<P>(on: Receiver, type: Notification<P>, handler: (params: P) => void): Disposable {
  return on.onNotification(type, handler);
}
