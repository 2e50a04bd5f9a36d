// Publishes tests to the native Testing API: one item per test file, AMTP's (its cases from the run
// records, beside the tests a person wrote in them) and the workspace's own, which the server finds
// (amtp/workspaceTestFiles, followed by testFileWatch.ts) and whose tests it reads from the file when
// the item is expanded, opened or run (amtp/fileTests). Runs them through the server (amtp/runTests:
// the project's runner, results by case id and, for the person's tests, by name).
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type * as P from '../../server/src/protocol';
import { debugAsTestRun, type DebugRunResult } from './debugRun';
import { debugConfigFor } from './model/debugConfig';
import type { CaseOutcome, RunsModel } from './model/runsModel';
import { testsByFile } from './model/testFiles';
import { fileItemId, listedFiles, ownTestId } from './model/testItems';
import { runOwnTestFiles } from './ownTestRun';
import { fillFileItem, workspaceFileItem, type FileTest } from './ownTestItems';
import { CoverageReport } from './testCoverage';
import { TestFileWatch } from './testFileWatch';

const WRITTEN: ReadonlySet<P.CaseStatus> = new Set(['written', 'passing', 'failing']);

export interface TestRunSummary {
  runId: string;
  framework: string;
  exitCode: number | null;
  results: Map<string, CaseOutcome>;
  /** failure messages by case id, whole */
  messages: Map<string, string>;
  /** what the tests covered, when the Coverage profile asked */
  coverage?: P.FileCoverageView[];
}

/** The server side of a test run, and how to cancel one. */
export interface TestRunner {
  run(p: P.RunTestsParams): Promise<P.RunTestsResult>;
  cancel(runId: string): Promise<unknown>;
  /** every test in these files, read by the server (AMTP's and the person's) */
  fileTests(files: string[]): Promise<P.FileTestsResult>;
  /** the workspace's test files: those the project's test command runs */
  workspaceTestFiles(): Promise<P.WorkspaceTestFilesResult>;
}

export class TestingBridge implements vscode.Disposable {
  readonly controller: vscode.TestController;
  /** case id (or own test id) → the run that wrote it (the newest run that wrote a file owns its items) */
  private readonly owner = new Map<string, string>();
  /** own test id → the test, for running it by name */
  private readonly own = new Map<string, P.OwnTest>();
  /** own test id → the test, in the workspace's test files no run wrote (they run with the project's runner) */
  private readonly theirs = new Map<string, P.OwnTest>();
  /** the workspace's test files (the server's list) and the tests read from those that were resolved */
  private workspaceFiles: string[] = [];
  private readonly read = new Map<string, FileTest[]>();
  /** the files a run wrote (their cases come from the records) */
  private amtpFiles = new Set<string>();
  /** follows the workspace's test files once the server runs (watchWorkspace) */
  watch: TestFileWatch | undefined;
  /** bumped by each sync: an older sync's answer from the server is dropped */
  private generation = 0;
  /** settles when the latest sync has listed the person's own tests too */
  synced: Promise<void> = Promise.resolve();
  /** the last coverage run, as reported to the Testing view */
  private readonly coverage = new CoverageReport();
  readonly coverageShown = this.coverage.shown;

  constructor(
    private readonly model: RunsModel,
    private readonly root: () => vscode.Uri | undefined,
    private readonly log: (line: string) => void,
    private readonly runner: TestRunner,
    /** unique per extension host: one controller per workspace folder */
    controllerId = 'amtp',
  ) {
    this.controller = vscode.tests.createTestController(controllerId, 'AMTP');
    this.controller.createRunProfile('Run AMTP tests', vscode.TestRunProfileKind.Run, (req, token) => this.runProfile(req, token), true);
    this.controller.refreshHandler = () => (this.watch ? this.watch.relist() : this.sync());
    // A workspace file's tests are read when its item is expanded (or its file opened, or run).
    this.controller.resolveHandler = (item) => (item ? this.resolveFiles([item]) : undefined);
    this.controller.createRunProfile(
      'Debug AMTP test',
      vscode.TestRunProfileKind.Debug,
      (req, token) => this.debugTests(req, token).then(() => undefined),
      true,
    );
    // Coverage: the same run, measured by the server (nothing needs to be installed in the project).
    const coverage = this.controller.createRunProfile(
      'Run AMTP tests with coverage',
      vscode.TestRunProfileKind.Coverage,
      (req, token) => this.runProfile(req, token, true),
      true,
    );
    coverage.loadDetailedCoverage = async (_run, file) => this.coverage.details(file.uri);
  }

  /** Rebuilds the items from the model: every written test of every run, by file (model/testFiles.ts). */
  sync(): void {
    const root = this.root();
    if (!root) return;
    this.owner.clear();
    const items: vscode.TestItem[] = [];
    const read = (file: string) => {
      try {
        return fs.readFileSync(vscode.Uri.joinPath(root, file).fsPath, 'utf8');
      } catch {
        return undefined;
      }
    };
    const owners = new Map<string, string>();
    const amtp = new Map(testsByFile(this.model.list(), read));
    this.amtpFiles = new Set(amtp.keys());
    this.theirs.clear();
    for (const { file } of listedFiles(amtp.keys(), this.workspaceFiles)) {
      const tests = amtp.get(file);
      if (!tests) {
        items.push(this.workspaceItem(root, file));
        continue;
      }
      const uri = vscode.Uri.joinPath(root, file);
      const item = this.controller.createTestItem(`file:${file}`, file, uri);
      item.children.replace(
        tests.map(({ runId, case: c }) => {
          const child = this.controller.createTestItem(c.id, c.testName ?? c.title, uri);
          child.description = c.id;
          if (c.testLine !== undefined) child.range = new vscode.Range(c.testLine, 0, c.testLine, 0);
          this.owner.set(c.id, runId);
          return child;
        }),
      );
      owners.set(file, tests[tests.length - 1]?.runId ?? '');
      items.push(item);
    }
    this.controller.items.replace(items);
    const generation = ++this.generation;
    this.synced = this.addOwnTests(owners, generation).catch((e: Error) => this.log(`could not list your own tests: ${e.message}`));
  }

  /** Adds the tests a person wrote in AMTP's test files (the server reads them on each file's syntax tree). */
  private async addOwnTests(owners: Map<string, string>, generation: number): Promise<void> {
    if (!owners.size) return;
    const { files } = await this.runner.fileTests([...owners.keys()]);
    if (generation !== this.generation) return;
    this.own.clear();
    for (const { file, tests } of files) {
      const item = this.controller.items.get(fileItemId(file));
      const runId = owners.get(file);
      if (!item || !runId) continue;
      for (const [id, t] of fillFileItem(this.controller, item, file, tests)) {
        this.owner.set(id, runId);
        this.own.set(id, t);
      }
    }
  }

  /** A workspace test file no run wrote: its tests when they were read, else read on demand (resolveFiles). */
  private workspaceItem(root: vscode.Uri, file: string): vscode.TestItem {
    const item = workspaceFileItem(this.controller, root, file, fileItemId(file));
    const tests = this.read.get(file);
    if (tests) {
      for (const [id, t] of fillFileItem(this.controller, item, file, tests)) this.theirs.set(id, t);
      item.canResolveChildren = false;
    }
    return item;
  }

  /** Reads the tests of these workspace test files (one request) into their items, replacing what was there. */
  async resolveFiles(items: readonly vscode.TestItem[]): Promise<void> {
    const files = items.filter((i) => i.id.startsWith('file:') && i.uri).map((i) => i.id.slice('file:'.length));
    if (!files.length) return;
    const { files: read } = await this.runner.fileTests(files);
    for (const { file, tests } of read) {
      this.read.set(file, tests);
      const item = this.controller.items.get(fileItemId(file));
      if (!item || this.amtpFiles.has(file)) continue;
      for (const [id, t] of this.theirs) if (t.file === file) this.theirs.delete(id);
      item.children.replace([]);
      for (const [id, t] of fillFileItem(this.controller, item, file, tests)) this.theirs.set(id, t);
      item.canResolveChildren = false;
    }
  }

  /** Lists the workspace's test files and follows them (testFileWatch.ts); the server must be running. */
  watchWorkspace(): vscode.Disposable {
    const root = this.root();
    if (!root) return new vscode.Disposable(() => undefined);
    this.watch = new TestFileWatch(root, {
      list: () => this.runner.workspaceTestFiles(),
      listed: (files) => {
        this.workspaceFiles = files;
        for (const f of this.read.keys()) if (!files.includes(f)) this.read.delete(f);
        this.sync();
      },
      touched: (file) => this.touched(file),
      log: this.log,
    });
    this.watch.start();
    return this.watch;
  }

  /** A test file changed or was opened: its tests are read again (AMTP's with the next sync). */
  private touched(file: string): void {
    const item = this.controller.items.get(fileItemId(file));
    if (!item) return;
    const job = this.amtpFiles.has(file) ? Promise.resolve(this.sync()) : this.resolveFiles([item]);
    void job.catch((e: Error) => this.log(`could not read the tests of ${file}: ${e.message}`));
  }

  /** Runs a run's written tests through the server and records the per-case results. */
  async runTests(
    runId?: string,
    token?: vscode.CancellationToken,
    onOutput?: (text: string) => void,
    caseIds?: string[],
    coverage = false,
    ownTests?: P.OwnTest[],
  ): Promise<TestRunSummary> {
    if (!vscode.workspace.isTrusted) throw new Error('Running tests executes workspace code: trust this workspace first.');
    const run = runId ? this.model.get(runId) : this.model.list().find((r) => r.cases.some((c) => WRITTEN.has(c.status)));
    if (!run) throw new Error(runId ? `No run ${runId}.` : 'No run has written tests yet.');
    this.log(`running the tests of run ${run.runId}${caseIds?.length ? ` (${caseIds.length} case(s))` : ''}`);
    const sub = token?.onCancellationRequested(() => void this.runner.cancel(run.runId));
    let r: P.RunTestsResult;
    try {
      r = await this.runner.run({
        runId: run.runId,
        ...(caseIds?.length || ownTests?.length ? { caseIds: caseIds ?? [] } : {}),
        ...(ownTests?.length ? { ownTests } : {}),
        ...(coverage ? { coverage } : {}),
      });
    } finally {
      sub?.dispose();
    }
    onOutput?.(r.output);
    const results = new Map<string, CaseOutcome>();
    const messages = new Map<string, string>();
    for (const c of r.results) {
      if (c.outcome === 'skipped') continue;
      results.set(c.caseId, c.outcome);
      if (c.message) messages.set(c.caseId, c.message);
    }
    // The person's own tests, by their Testing-view id (never into the runs model: they are no case).
    const own = new Map<string, CaseOutcome>();
    for (const t of r.ownResults ?? []) {
      if (t.outcome === 'skipped') continue;
      own.set(ownTestId(t.file, t), t.outcome);
      if (t.message) messages.set(ownTestId(t.file, t), t.message);
    }
    this.log(
      `${r.framework} exited ${r.exitCode}${r.timedOut ? ' (timed out)' : ''}: ${[...results.values()].filter((o) => o === 'passing').length} passing, ${[...results.values()].filter((o) => o === 'failing').length} failing`,
    );
    this.model.applyResults(run.runId, results);
    return {
      runId: run.runId,
      framework: r.framework,
      exitCode: r.exitCode,
      results: new Map([...results, ...own]),
      messages,
      ...(r.coverage ? { coverage: r.coverage } : {}),
    };
  }

  private async runProfile(request: vscode.TestRunRequest, token: vscode.CancellationToken, coverage = false): Promise<void> {
    const testRun = this.controller.createTestRun(request);
    if (coverage) this.coverage.clear();
    const items = await this.wantedItems(request);
    items.forEach((i) => testRun.started(i));
    const output = (t: string) => testRun.appendOutput(t.replace(/\r?\n/g, '\r\n'));
    try {
      const theirs = [...items.keys()].filter((id) => this.theirs.has(id));
      const ours = [...items.keys()].filter((id) => !this.theirs.has(id));
      const runIds = new Set(ours.map((id) => this.owner.get(id)).filter((x): x is string => !!x));
      // One command runs a whole run's files; results are then filtered to the requested cases.
      for (const runId of runIds.size ? runIds : ours.length || !theirs.length ? [undefined] : []) {
        const ids = ours.filter((id) => this.owner.get(id) === runId);
        const ownTests = ids.filter((id) => this.own.has(id)).map((id) => this.own.get(id)!);
        const summary = await this.runTests(
          runId,
          token,
          output,
          request.include ? ids.filter((id) => !this.own.has(id)) : undefined,
          coverage,
          request.include ? ownTests : undefined,
        );
        for (const file of summary.coverage ?? []) this.coverage.add(testRun, this.root()!, file);
        report(testRun, items, summary);
      }
      // The workspace's own test files: the project's runner, by test name unless whole files were asked for.
      const files = new Set(theirs.map((id) => this.theirs.get(id)!.file));
      const whole = [...this.theirs].every(([id, t]) => !files.has(t.file) || items.has(id));
      if (theirs.length)
        report(
          testRun,
          items,
          await this.runOwnFiles(
            theirs.map((id) => this.theirs.get(id)!),
            whole,
            token,
            output,
          ),
        );
      items.forEach((i) => testRun.skipped(i));
    } catch (e) {
      testRun.appendOutput(`${(e as Error).message}\r\n`);
      items.forEach((i) => testRun.errored(i, new vscode.TestMessage((e as Error).message)));
      void vscode.window.showErrorMessage(`AMTP: ${(e as Error).message}`);
    } finally {
      testRun.end();
    }
  }

  /** The tests a request asks for, by id; a workspace file not read yet is read first, so its tests report one by one. */
  private async wantedItems(request: vscode.TestRunRequest): Promise<Map<string, vscode.TestItem>> {
    const roots: vscode.TestItem[] = [...(request.include ?? [])];
    if (!request.include) this.controller.items.forEach((i) => void roots.push(i));
    await this.resolveFiles(roots.filter((i) => i.canResolveChildren && i.children.size === 0)).catch((e: Error) =>
      this.log(`could not read the tests of the files to run: ${e.message}`),
    );
    const wanted = new Set<string>();
    const collect = (item: vscode.TestItem) => {
      if (item.children.size === 0) wanted.add(item.id);
      item.children.forEach(collect);
    };
    roots.forEach((i) => collect(this.controller.items.get(i.id) ?? i));
    for (const id of request.exclude?.map((i) => i.id) ?? []) wanted.delete(id);
    const items = new Map<string, vscode.TestItem>();
    this.controller.items.forEach((f) => f.children.forEach((c) => wanted.has(c.id) && items.set(c.id, c)));
    return items;
  }

  /** Runs tests of the workspace's own files (no run wrote them) with the project's runner (ownTestRun.ts). */
  runOwnFiles(tests: P.OwnTest[], whole: boolean, token?: vscode.CancellationToken, onOutput?: (text: string) => void) {
    return runOwnTestFiles(this.runner, this.model, this.log, { tests, whole, token, onOutput });
  }

  /**
   * Debug profile: one test under the debugger, through the run's own test command
   * (model/debugConfig.ts), recorded in the Testing view as a run of its own (debugRun.ts).
   */
  async debugTests(request: vscode.TestRunRequest, token?: vscode.CancellationToken): Promise<DebugRunResult | undefined> {
    const root = this.root();
    const item = request.include?.flatMap((i) => (i.children.size ? [...collectChildren(i)] : [i]))[0];
    const run = item && this.model.get(this.owner.get(item.id) ?? '');
    // A workspace file's own test runs with the project's runner; the debugger only knows a run's command.
    if (item && this.theirs.has(item.id))
      return void vscode.window.showInformationMessage(
        'AMTP: debugging a test of your own test files is not supported yet: Run it from the Testing view, or debug it with your test command.',
      );
    const own = item && this.own.get(item.id);
    // The person's own test debugs the same way, by its name in its file.
    const c = own
      ? ({ id: item.id, title: own.name, testFile: own.file, testName: own.name } as P.CaseView)
      : run?.cases.find((x) => x.id === item?.id);
    if (!root || !item || !run || !c) return void vscode.window.showInformationMessage('AMTP: pick one generated test to debug.');
    if (!vscode.workspace.isTrusted)
      return void vscode.window.showErrorMessage('AMTP: debugging a test runs workspace code: trust this workspace first.');
    const config = debugConfigFor(run, c, root.fsPath, vscode.extensions.getExtension('ms-python.debugpy') !== undefined);
    if ('error' in config) return void vscode.window.showErrorMessage(`AMTP: ${config.error}`);
    this.log(`debugging ${c.id} in ${c.testFile}`);
    const result = await debugAsTestRun(this.controller, request, item, config, vscode.workspace.getWorkspaceFolder(root), token);
    this.log(`debugged ${c.id}: ${result.outcome}`);
    if (result.outcome === 'not_started') void vscode.window.showErrorMessage(`AMTP: the debugger did not start for ${c.id}.`);
    // An AMTP case's outcome reaches the Test Cases tree as a run's does (the person's own tests are no case).
    if (!own && (result.outcome === 'passed' || result.outcome === 'failed'))
      this.model.applyResults(run.runId, new Map([[c.id, result.outcome === 'passed' ? 'passing' : 'failing']]));
    return result;
  }

  dispose(): void {
    this.controller.dispose();
  }
}

/** Passes or fails each item a summary has a result for; the rest stay for the next batch (or are skipped). */
function report(testRun: vscode.TestRun, items: Map<string, vscode.TestItem>, summary: Pick<TestRunSummary, 'results' | 'messages'>): void {
  for (const [id, outcome] of summary.results) {
    const item = items.get(id);
    if (!item) continue;
    if (outcome === 'passing') testRun.passed(item);
    else testRun.failed(item, new vscode.TestMessage(summary.messages.get(id) ?? `${id} failed (see the test output)`));
    items.delete(id);
  }
}

function* collectChildren(item: vscode.TestItem): Generator<vscode.TestItem> {
  const kids: vscode.TestItem[] = [];
  item.children.forEach((k) => kids.push(k));
  for (const k of kids) yield* k.children.size ? collectChildren(k) : [k];
}
