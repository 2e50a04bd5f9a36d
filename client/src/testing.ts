// Publishes written tests to the native Testing API (one item per file, one child per test: AMTP's
// by case, and the tests a person wrote in the same files, which the server reads from the files:
// amtp/fileTests) and runs them through the server (amtp/runTests: the project's runner, results by
// case id and, for the person's tests, by name).
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type * as P from '../../server/src/protocol';
import { debugAsTestRun, type DebugRunResult } from './debugRun';
import { debugConfigFor } from './model/debugConfig';
import type { CaseOutcome, RunsModel } from './model/runsModel';
import { testsByFile } from './model/testFiles';

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
}

/** The Testing view's id of a test a person wrote: its file and full name. */
function ownTestId(file: string, t: { name: string; suites: string[] }): string {
  return `own:${file}::${[...t.suites, t.name].join(' ')}`;
}

export class TestingBridge implements vscode.Disposable {
  readonly controller: vscode.TestController;
  /** case id (or own test id) → the run that wrote it (the newest run that wrote a file owns its items) */
  private readonly owner = new Map<string, string>();
  /** own test id → the test, for running it by name */
  private readonly own = new Map<string, P.OwnTest>();
  /** bumped by each sync: an older sync's answer from the server is dropped */
  private generation = 0;
  /** settles when the latest sync has listed the person's own tests too */
  synced: Promise<void> = Promise.resolve();
  /** the last coverage run's details by file URI, for loadDetailedCoverage */
  private readonly details = new Map<string, vscode.FileCoverageDetail[]>();
  /** what the last coverage run reported to the Testing view, per source file */
  readonly coverageShown: { path: string; covered: number; total: number }[] = [];

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
    this.controller.refreshHandler = () => this.sync();
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
    coverage.loadDetailedCoverage = async (_run, file) => this.details.get(file.uri.toString()) ?? [];
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
    for (const [file, tests] of testsByFile(this.model.list(), read)) {
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
    this.synced = this.addOwnTests(root, owners, generation).catch((e: Error) => this.log(`could not list your own tests: ${e.message}`));
  }

  /** Adds the tests a person wrote in AMTP's test files (the server reads them on each file's syntax tree). */
  private async addOwnTests(root: vscode.Uri, owners: Map<string, string>, generation: number): Promise<void> {
    if (!owners.size) return;
    const { files } = await this.runner.fileTests([...owners.keys()]);
    if (generation !== this.generation) return;
    this.own.clear();
    for (const { file, tests } of files) {
      const item = this.controller.items.get(`file:${file}`);
      const runId = owners.get(file);
      if (!item || !runId) continue;
      const uri = vscode.Uri.joinPath(root, file);
      // AMTP's tests at the line the test starts (the id's comment may sit a line lower, where a formatter put it).
      for (const t of tests) {
        const mine = t.caseId ? item.children.get(t.caseId) : undefined;
        if (mine) mine.range = new vscode.Range(t.line, 0, t.line, 0);
      }
      for (const t of tests.filter((x) => !x.caseId)) {
        const id = ownTestId(file, t);
        const child = this.controller.createTestItem(id, t.name, uri);
        child.description = 'your test';
        child.range = new vscode.Range(t.line, 0, t.line, 0);
        child.sortText = String(t.line).padStart(6, '0');
        this.owner.set(id, runId);
        this.own.set(id, { file, name: t.name, suites: t.suites });
        item.children.add(child);
      }
      // AMTP's tests sort by their line too, so the view reads in file order.
      item.children.forEach((c) => (c.sortText ??= String(c.range?.start.line ?? 0).padStart(6, '0')));
    }
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
    if (coverage) this.coverageShown.splice(0);
    const wanted = new Set<string>();
    const collect = (item: vscode.TestItem) => {
      if (item.children.size === 0) wanted.add(item.id);
      item.children.forEach(collect);
    };
    if (request.include) request.include.forEach(collect);
    else this.controller.items.forEach(collect);
    for (const id of request.exclude?.map((i) => i.id) ?? []) wanted.delete(id);
    const items = new Map<string, vscode.TestItem>();
    this.controller.items.forEach((f) => f.children.forEach((c) => wanted.has(c.id) && items.set(c.id, c)));
    items.forEach((i) => testRun.started(i));
    try {
      const runIds = new Set([...items.keys()].map((id) => this.owner.get(id)).filter((x): x is string => !!x));
      // One command runs a whole run's files; results are then filtered to the requested cases.
      for (const runId of runIds.size ? runIds : [undefined]) {
        const ids = [...items.keys()].filter((id) => this.owner.get(id) === runId);
        const ownTests = ids.filter((id) => this.own.has(id)).map((id) => this.own.get(id)!);
        const summary = await this.runTests(
          runId,
          token,
          (t) => testRun.appendOutput(t.replace(/\r?\n/g, '\r\n')),
          request.include ? ids.filter((id) => !this.own.has(id)) : undefined,
          coverage,
          request.include ? ownTests : undefined,
        );
        for (const file of summary.coverage ?? []) this.addCoverage(testRun, file);
        for (const [id, outcome] of summary.results) {
          const item = items.get(id);
          if (!item) continue;
          if (outcome === 'passing') testRun.passed(item);
          else testRun.failed(item, new vscode.TestMessage(summary.messages.get(id) ?? `${id} failed (see the test output)`));
          items.delete(id);
        }
      }
      items.forEach((i) => testRun.skipped(i));
    } catch (e) {
      testRun.appendOutput(`${(e as Error).message}\r\n`);
      items.forEach((i) => testRun.errored(i, new vscode.TestMessage((e as Error).message)));
      void vscode.window.showErrorMessage(`AMTP: ${(e as Error).message}`);
    } finally {
      testRun.end();
    }
  }

  private addCoverage(testRun: vscode.TestRun, file: P.FileCoverageView): void {
    const root = this.root();
    if (!root) return;
    const uri = vscode.Uri.joinPath(root, file.path);
    // Per-line detail is the statements; branch arms are counted on the file.
    this.details.set(
      uri.toString(),
      file.statements.map((s) => new vscode.StatementCoverage(s.count, new vscode.Position(s.line, s.character))),
    );
    const covered = file.statements.filter((s) => s.count > 0).length;
    const branches = file.branches.length
      ? new vscode.TestCoverageCount(file.branches.filter((b) => b.covered).length, file.branches.length)
      : undefined;
    testRun.addCoverage(new vscode.FileCoverage(uri, new vscode.TestCoverageCount(covered, file.statements.length), branches));
    this.coverageShown.push({ path: file.path, covered, total: file.statements.length });
  }

  /**
   * Debug profile: one test under the debugger, through the run's own test command
   * (model/debugConfig.ts), recorded in the Testing view as a run of its own (debugRun.ts).
   */
  async debugTests(request: vscode.TestRunRequest, token?: vscode.CancellationToken): Promise<DebugRunResult | undefined> {
    const root = this.root();
    const item = request.include?.flatMap((i) => (i.children.size ? [...collectChildren(i)] : [i]))[0];
    const run = item && this.model.get(this.owner.get(item.id) ?? '');
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

function* collectChildren(item: vscode.TestItem): Generator<vscode.TestItem> {
  const kids: vscode.TestItem[] = [];
  item.children.forEach((k) => kids.push(k));
  for (const k of kids) yield* k.children.size ? collectChildren(k) : [k];
}
