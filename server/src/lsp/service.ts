import type { LogLevel } from '../core/log';
import * as path from 'node:path';
import { crawlWorkspace } from '../agents/crawler/staticMap';
import type { Approver } from '../gateway/gateway';
import { errorMessage } from '../core/errors';
import { resolveParams } from '../pipeline/config';
import { observableState } from '../pipeline/observable';
import { newRunId } from '../core/ids';
import { resumeRun, startRun } from '../pipeline/orchestrator';
import type { PipelineDeps, PipelineEvent } from '../pipeline/deps';
import { createProvider } from '../app/providers';
import { STORE_DIR } from '../store/lowdb';
import { openRunStore, storeUrl } from '../app/store';
import { endpointOf, recordingSecrets } from '../app/scale';
import type { RunStore } from '../store/types';
import { ignoredRunsNote } from '../store/runRecords';
import type { RunRecord } from '../core/run';
import type * as P from '../protocol';
import { recordedDeps } from '../record/wire';
import { checkDeterminism } from '../record/determinism';
import { runView, verifyingMessage } from './runView';
import { runTestsRequest } from './runTestsRequest';
import { workspaceTestFiles } from './workspaceTests';
import { exportedSymbols, fileTests } from './fileSymbols';
import { runDeps } from '../app/runDeps';
import { resolveScope } from '../app/scope';
import { applyReview, reviewOutcome } from '../app/review';
import { forgetLesson, listLessons } from '../app/lessons';
import { crawlResult, detectResult } from './crawlViews';
import { mutationParams } from '../core/mutation';
import { DEFAULT_VERIFY } from '../core/run';
import type { LmBridge } from '../llm/vscodeLmProvider';
import { sharedCapabilities } from '../llm/capabilities';
import { parsePriceTable } from '../usage/priceTable';
import { runPrices } from '../usage/defaultPrices';

export type ProgressValue =
  | { kind: 'begin'; title: string; message?: string; cancellable?: boolean }
  | { kind: 'report'; message?: string }
  | { kind: 'end'; message?: string };

/** The server's view of the client. Logic talks to this, never to the connection. */
export interface ClientPort {
  runChanged(view: P.RunView): void;
  requestApproval(p: P.ApprovalParams): Promise<P.ApprovalResult>;
  progress(token: string, value: ProgressValue): void;
  /** a line of the server's log at its level (core/log.ts): the client shows it by the LSP's message type */
  log(line: string, level: LogLevel): void;
  /** vscode.lm in the client (provider vscode-lm); absent in clients without it */
  lm?: LmBridge;
}

export class RestrictedModeError extends Error {}

/**
 * Handlers for every amtp/* request, as plain async functions over plain data
 * (tested in-process; server.ts only wires them to the connection).
 */
export class AmtpService {
  private settings: P.ServerSettings;
  private trusted: boolean;
  private apiKey: string | null = null;
  private readonly active = new Map<string, AbortController>();
  readonly store: RunStore;

  constructor(
    readonly workspace: string,
    private readonly port: ClientPort,
    init: P.InitOptions,
    private readonly cliPath = path.join(__dirname, 'cli.js'),
  ) {
    this.settings = init.settings;
    this.trusted = init.trusted;
    // The store a person chose (amtp.store, machine scope) is read once: a change needs a reload.
    this.store = openRunStore(workspace, storeUrl(init.settings.store, {}));
  }

  settingsChanged(s: P.ServerSettings): void {
    this.settings = s;
  }

  setTrusted(trusted: boolean): void {
    this.trusted = trusted;
  }

  setCredentials(p: P.SetCredentialsParams): void {
    this.apiKey = p.apiKey || null;
    this.port.log(`API key ${this.apiKey ? 'set' : 'cleared'}`, 'info'); // never the key itself
  }

  async crawl(): Promise<P.CrawlResult> {
    return crawlResult((await crawlWorkspace(this.workspace)).map);
  }

  async detect(): Promise<P.DetectResult> {
    return detectResult((await crawlWorkspace(this.workspace)).map);
  }

  async generate(p: P.GenerateParams): Promise<P.GenerateResult> {
    this.requireTrust('Generate Tests');
    const s = this.settings;
    const params = resolveParams(
      {
        depth: p.depth ?? s.defaultDepth,
        framework: p.framework ?? s.defaultFramework,
        provider: s.provider,
        model: s.model,
        models: s.models,
        temperature: s.temperature,
        seed: s.seed,
        maxInputTokens: s.maxInputTokens,
        maxOutputTokens: s.maxOutputTokens,
        concurrency: s.concurrency,
      },
      (w) => this.port.log(w, 'warn'),
    );
    // A bad table is a clear error, not a wrong cost; no table: AMTP's dated default for hosted endpoints.
    Object.assign(
      params,
      runPrices(params.provider, s.priceTable ? parsePriceTable(s.priceTable, 'amtp.priceTable') : undefined, Boolean(this.apiKey)),
    );
    params.verify = {
      ...DEFAULT_VERIFY,
      enabled: s.verify !== false,
      ...(s.verifyRuns && s.verifyRuns > 0 ? { runs: Math.floor(s.verifyRuns) } : {}),
      ...(s.testTimeoutSeconds && s.testTimeoutSeconds > 0 ? { timeoutSeconds: s.testTimeoutSeconds } : {}),
      mutation: mutationParams(s.mutation, s.mutationBudgetSeconds),
    };
    params.characterize = s.characterize !== false;
    if (s.searchBudgetSeconds && s.searchBudgetSeconds > 0) params.searchBudget = s.searchBudgetSeconds;
    const scope = await resolveScope(this.workspace, p.scope ?? {});
    if (scope) params.scope = scope;
    if (p.intoExisting ?? s.intoExistingTestFile) params.intoExisting = true;
    if (s.confidenceThreshold !== undefined && s.confidenceThreshold >= 0 && s.confidenceThreshold <= 1)
      params.confidenceThreshold = s.confidenceThreshold;
    const runId = newRunId();
    let deps = await this.deps(params.provider, runId);
    let close = () => undefined as void;
    if (s.record) {
      const file = path.join(this.workspace, STORE_DIR, 'recordings', `${runId}.jsonl`);
      const r = recordedDeps(deps, params, runId, file, recordingSecrets(this.apiKey, this.settings));
      deps = r.deps;
      close = () => r.recorder.close();
      this.port.log(`recording run ${runId} to ${file}`, 'info');
    }
    this.track(runId, p.workDoneToken, 'AMTP: generating tests', () => startRun(deps, params, runId), close);
    return { runId };
  }

  async resume(p: P.ResumeParams): Promise<P.GenerateResult> {
    this.requireTrust('Resume Run');
    const run = await this.store.getOwnRun(p.runId);
    if (this.active.has(run.id)) throw new Error(`run ${run.id} is already running`);
    const deps = await this.deps(run.params.provider, run.id);
    this.track(
      run.id,
      p.workDoneToken,
      'AMTP: resuming run',
      () => resumeRun(deps, run.id),
      () => undefined,
    );
    return { runId: run.id };
  }

  cancel(p: P.RunIdParams): { cancelled: boolean } {
    const c = this.active.get(p.runId) ?? this.testRuns.get(p.runId);
    c?.abort();
    return { cancelled: !!c };
  }

  /** The person ran tests: their click is the approval, and a run's gateway records and audits it (runTestsRequest.ts). */
  runTests(p: P.RunTestsParams): Promise<P.RunTestsResult> {
    this.requireTrust('Run Tests');
    const busy = (id: string) => this.active.has(id) || this.testRuns.has(id);
    return runTestsRequest({ store: this.store, workspace: this.workspace, settings: this.settings, busy, testRuns: this.testRuns }, p);
  }

  private readonly testRuns = new Map<string, AbortController>();

  /** Read-only, like crawl: allowed in Restricted Mode (the CodeLens only offers to generate). */
  exportedSymbols(p: P.ExportedSymbolsParams): Promise<P.ExportedSymbolsResult> {
    return exportedSymbols(this.workspace, p.file);
  }

  /** Read-only: the tests these files hold (the Testing view lists the person's own beside AMTP's). */
  fileTests(p: P.FileTestsParams): Promise<P.FileTestsResult> {
    return fileTests(this.workspace, p.files);
  }
  /** Read-only: the test files the project's test command runs (the Testing view lists their tests). */
  workspaceTestFiles(): Promise<P.WorkspaceTestFilesResult> {
    return workspaceTestFiles(this.workspace);
  }

  async runs(): Promise<P.RunsResult> {
    const { runs, ignored } = await this.store.scanRuns();
    const note = ignoredRunsNote(ignored);
    if (note) this.port.log(note, 'warn');
    return { runs: await Promise.all(runs.map((r) => runView(r, this.store))) };
  }

  async review(p: P.ReviewParams): Promise<P.ReviewResult> {
    return reviewOutcome(await applyReview(this.store, p.runId, p.decisions, 'vscode'));
  }

  lessons(): Promise<P.LessonsResult> {
    return listLessons(this.store).then((lessons) => ({ lessons }));
  }
  forgetLesson(p: P.ForgetLessonParams): Promise<{ forgotten: true }> {
    return forgetLesson(this.store, p.id).then(() => ({ forgotten: true as const }));
  }

  async verifyDeterminism(p: P.VerifyDeterminismParams): Promise<P.VerifyDeterminismResult> {
    const file = path.resolve(this.workspace, p.file);
    const r = await checkDeterminism(file, this.cliPath);
    return { identical: r.identical, summary: r.summary, diff: r.diff };
  }

  /** Resolves when every run started by this service has ended (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  private readonly pending = new Set<Promise<unknown>>();

  private requireTrust(what: string): void {
    if (!this.trusted)
      throw new RestrictedModeError(
        `${what} is not available in Restricted Mode: trust this workspace to let AMTP write and run tests. Crawl Workspace still works.`,
      );
  }

  private async deps(provider: string, runId: string): Promise<PipelineDeps> {
    // Before the run is tracked: a misconfigured provider or an unreachable cache or queue fails here and leaves nothing behind.
    const llm = this.provider(provider);
    const { cache = '', queue = '' } = this.settings;
    const controller = new AbortController();
    let lastState = '';
    const deps = await runDeps({
      workspace: this.workspace,
      provider: llm,
      endpoint: endpointOf(this.settings),
      scale: { cache, queue },
      store: this.store,
      approver: this.approver(),
      risk: this.settings.riskOverrides,
      signal: controller.signal,
      // Tests execute workspace code: never in Restricted Mode, even if trust is revoked mid-run.
      canExecute: () => this.trusted,
      onEvent: (e: PipelineEvent) => {
        // Only a running state is sent mid-run: the client takes a terminal status as the run's end,
        // and the write stage records `completed` before verification starts. track() sends the end.
        if (e.type === 'run' && e.run.status === 'running') {
          const text = observableState(e.run).text;
          if (text !== lastState) {
            lastState = text;
            void this.publish(e.run);
          }
        } else if (e.type === 'log') this.port.log(e.message, e.level);
        this.reporters.get(runId)?.(e);
      },
    });
    this.active.set(runId, controller);
    return deps;
  }

  /** The person's endpoint settings (user-only keys: VS Code and userSafeGetter keep repositories out). */
  private provider(provider: string) {
    const s = this.settings;
    return createProvider({
      provider,
      apiKey: this.apiKey ?? undefined,
      baseURL: s.baseURL,
      azureEndpoint: s.azureEndpoint,
      azureDeployment: s.azureDeployment,
      azureApiVersion: s.azureApiVersion,
      headers: s.headers,
      timeoutSeconds: s.modelTimeoutSeconds,
      deadlineSeconds: s.modelDeadlineSeconds,
      maxOutputTokens: s.maxOutputTokens,
      structuredOutput: s.structuredOutput,
      lm: this.port.lm,
      capabilities: sharedCapabilities(),
      log: (line) => this.port.log(line, 'info'),
    });
  }

  /** per-run progress reporters and the latest case count each run has shown */
  private readonly reporters = new Map<string, (e: PipelineEvent) => void>();
  private readonly caseCounts = new Map<string, number>();

  private track(runId: string, token: string | undefined, title: string, body: () => Promise<RunRecord>, close: () => void): void {
    if (token) this.port.progress(token, { kind: 'begin', title, message: 'starting', cancellable: true });
    const cases = () => (this.caseCounts.get(runId) ? ` · ${this.caseCounts.get(runId)} cases` : '');
    if (token) {
      this.reporters.set(runId, (e) => {
        if (e.type === 'activity')
          this.port.progress(token, { kind: 'report', message: `${e.agent}${e.attempt > 1 ? ` (attempt ${e.attempt})` : ''}${cases()}` });
        if (e.type === 'run' && e.run.stage === 'characterize')
          this.port.progress(token, {
            kind: 'report',
            message: `pinning current behaviour · ${e.run.characterization?.modules.length ?? 0} module(s) done${cases()}`,
          });
        if (e.type === 'run' && e.run.stage === 'write')
          this.port.progress(token, { kind: 'report', message: `writing files · ${e.run.files.length} done${cases()}` });
        if (e.type === 'run' && e.run.stage === 'verify') this.port.progress(token, { kind: 'report', message: verifyingMessage(e.run) });
      });
    }
    const work = (async () => {
      try {
        const run = await body();
        const view = await this.publish(run);
        if (token)
          this.port.progress(token, { kind: 'end', message: `${run.status}: ${view.cases.length} cases, ${view.files.length} files` });
      } catch (e) {
        this.port.log(`run ${runId} failed: ${errorMessage(e)}`, 'error');
        const run = await this.store.getRun(runId).catch(() => undefined);
        if (run) await this.publish(run);
        if (token) this.port.progress(token, { kind: 'end', message: `failed: ${errorMessage(e)}` });
      } finally {
        close();
        this.active.delete(runId);
        this.reporters.delete(runId);
        this.caseCounts.delete(runId);
      }
    })();
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work));
  }

  /** views go out in the order of the states: a slow view of an earlier state never lands last */
  private publishing: Promise<unknown> = Promise.resolve();

  private publish(run: RunRecord): Promise<P.RunView> {
    const sent = this.publishing.then(async () => {
      const view = await runView(run, this.store);
      if (this.active.has(run.id)) this.caseCounts.set(run.id, view.cases.length);
      this.port.runChanged(view);
      return view;
    });
    this.publishing = sent.catch(() => undefined);
    return sent;
  }

  /** High-risk actions ask the person in VS Code; no answer within the timeout is recorded as `timeout`. */
  private approver(): Approver {
    return {
      ask: async (req) => {
        const timeoutMs = (this.settings.approvalTimeoutSeconds ?? 300) * 1000;
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<P.ApprovalResult>((resolve) => {
          timer = setTimeout(() => resolve({ decision: 'timeout', note: `no answer within ${timeoutMs / 1000} s` }), timeoutMs);
        });
        try {
          const answer = await Promise.race([
            this.port.requestApproval({
              runId: req.runId,
              approvalId: req.id,
              tool: req.tool,
              risk: req.risk,
              summary: req.summary,
              target: req.target,
              diff: req.diff,
            }),
            timeout,
          ]);
          return { decision: answer.decision, note: answer.note, by: 'vscode' };
        } finally {
          clearTimeout(timer);
        }
      },
    };
  }
}
