// Publishes written tests to the native Testing API (one item per file, one child per case) and
// runs them through the server (amtp/runTests: the project's runner, structured results by case id).
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type * as P from '../../server/src/protocol';
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
}

export class TestingBridge implements vscode.Disposable {
  readonly controller = vscode.tests.createTestController('amtp', 'AMTP');
  /** case id → the run that wrote it (the newest run that wrote a file owns its items) */
  private readonly owner = new Map<string, string>();
  /** the last coverage run's details by file URI, for loadDetailedCoverage */
  private readonly details = new Map<string, vscode.FileCoverageDetail[]>();
  /** what the last coverage run reported to the Testing view, per source file */
  readonly coverageShown: { path: string; covered: number; total: number }[] = [];

  constructor(
    private readonly model: RunsModel,
    private readonly root: () => vscode.Uri | undefined,
    private readonly log: (line: string) => void,
    private readonly runner: TestRunner,
  ) {
    this.controller.createRunProfile('Run AMTP tests', vscode.TestRunProfileKind.Run, (req, token) => this.runProfile(req, token), true);
    this.controller.refreshHandler = () => this.sync();
    this.controller.createRunProfile('Debug AMTP test', vscode.TestRunProfileKind.Debug, (req) => this.debugProfile(req), true);
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
    for (const [file, tests] of testsByFile(this.model.list(), read)) {
      const uri = vscode.Uri.joinPath(root, file);
      const item = this.controller.createTestItem(`file:${file}`, file, uri);
      item.children.replace(
        tests.map(({ runId, case: c }) => {
          const child = this.controller.createTestItem(c.id, c.title, uri);
          child.description = c.id;
          if (c.testLine !== undefined) child.range = new vscode.Range(c.testLine, 0, c.testLine, 0);
          this.owner.set(c.id, runId);
          return child;
        }),
      );
      items.push(item);
    }
    this.controller.items.replace(items);
  }

  /** Runs a run's written tests through the server and records the per-case results. */
  async runTests(
    runId?: string,
    token?: vscode.CancellationToken,
    onOutput?: (text: string) => void,
    caseIds?: string[],
    coverage = false,
  ): Promise<TestRunSummary> {
    if (!vscode.workspace.isTrusted) throw new Error('Running tests executes workspace code: trust this workspace first.');
    const run = runId ? this.model.get(runId) : this.model.list().find((r) => r.cases.some((c) => WRITTEN.has(c.status)));
    if (!run) throw new Error(runId ? `No run ${runId}.` : 'No run has written tests yet.');
    this.log(`running the tests of run ${run.runId}${caseIds?.length ? ` (${caseIds.length} case(s))` : ''}`);
    const sub = token?.onCancellationRequested(() => void this.runner.cancel(run.runId));
    let r: P.RunTestsResult;
    try {
      r = await this.runner.run({ runId: run.runId, ...(caseIds?.length ? { caseIds } : {}), ...(coverage ? { coverage } : {}) });
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
    this.log(
      `${r.framework} exited ${r.exitCode}${r.timedOut ? ' (timed out)' : ''}: ${[...results.values()].filter((o) => o === 'passing').length} passing, ${[...results.values()].filter((o) => o === 'failing').length} failing`,
    );
    this.model.applyResults(run.runId, results);
    return {
      runId: run.runId,
      framework: r.framework,
      exitCode: r.exitCode,
      results,
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
        const summary = await this.runTests(
          runId,
          token,
          (t) => testRun.appendOutput(t.replace(/\r?\n/g, '\r\n')),
          request.include ? ids : undefined,
          coverage,
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

  // Debug profile: one test under the debugger, through the run's own test command (model/debugConfig.ts).
  private async debugProfile(request: vscode.TestRunRequest): Promise<void> {
    const root = this.root();
    const item = request.include?.flatMap((i) => (i.children.size ? [...collectChildren(i)] : [i]))[0];
    const run = item && this.model.get(this.owner.get(item.id) ?? '');
    const c = run?.cases.find((x) => x.id === item?.id);
    if (!root || !run || !c) return void vscode.window.showInformationMessage('AMTP: pick one generated test to debug.');
    if (!vscode.workspace.isTrusted)
      return void vscode.window.showErrorMessage('AMTP: debugging a test runs workspace code: trust this workspace first.');
    const config = debugConfigFor(run, c, root.fsPath, vscode.extensions.getExtension('ms-python.debugpy') !== undefined);
    if ('error' in config) return void vscode.window.showErrorMessage(`AMTP: ${config.error}`);
    this.log(`debugging ${c.id} in ${c.testFile}`);
    if (!(await vscode.debug.startDebugging(vscode.workspace.getWorkspaceFolder(root), config)))
      void vscode.window.showErrorMessage(`AMTP: the debugger did not start for ${c.id}.`);
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
