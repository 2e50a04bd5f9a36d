// Command handlers. Each returns its result so the extension tests can drive them without the UI.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import * as P from '../../server/src/protocol';
import type { ApprovalUi } from './approvals';
import type { PendingApproval } from './model/approvalQueue';
import type { StandingApprovals } from './model/standingApprovals';
import { describeRun, runHealthLines, type CaseFilter, type RunsModel, type TreeNode } from './model/runsModel';
import { outcomeLine } from './model/runTally';
import { DEPTHS, FRAMEWORK_CHOICES } from '../../server/src/core/frameworks';
import { startWithProgress } from './progress';
import { warnAfterApproval } from './approvalNotes';
import type { TestingBridge } from './testing';

export const SECRET_KEY = 'amtp.apiKey';

/** One workspace folder's side of a command: its server, runs, Testing items and standing approval. */
export interface Ctx {
  client: LanguageClient;
  model: RunsModel;
  approvals: ApprovalUi;
  testing: TestingBridge;
  secrets: vscode.SecretStorage;
  log: (line: string) => void;
  root: () => vscode.Uri | undefined;
  /** "Always allow running workspace code here" for this folder */
  standing: StandingApprovals;
}

const DEPTH_DETAIL: Record<P.Depth, string> = {
  smoke: 'a few P0 cases per public symbol',
  standard: 'documented behaviour and error paths',
  deep: 'everything the analysis can justify',
};

function requireTrust(what: string): boolean {
  if (vscode.workspace.isTrusted) return true;
  void vscode.window
    .showWarningMessage(
      `AMTP: ${what} writes and runs code, so it is not available in Restricted Mode. Crawl Workspace still works.`,
      'Manage Workspace Trust',
    )
    .then((c) => c && vscode.commands.executeCommand('workbench.trust.manage'));
  return false;
}

async function refreshRuns(ctx: Ctx): Promise<P.RunView[]> {
  const { runs } = await P.sendRequest(ctx.client, P.Runs, null);
  ctx.model.replaceAll(runs);
  return runs;
}

async function pickDepth(): Promise<P.Depth | undefined> {
  const def = vscode.workspace.getConfiguration('amtp').get<P.Depth>('defaultDepth') ?? 'standard';
  const items = [def, ...DEPTHS.filter((d) => d !== def)].map((d) => ({
    label: d,
    description: d === def ? 'default' : '',
    detail: DEPTH_DETAIL[d],
  }));
  return pickLabel(items, 'AMTP: test depth', 'How deep should the generated tests go?');
}

async function pickFramework(ctx: Ctx): Promise<P.FrameworkChoice | undefined> {
  const configured = vscode.workspace.getConfiguration('amtp').get<P.FrameworkChoice>('defaultFramework') ?? 'auto';
  let detected: P.DetectResult | undefined;
  try {
    detected = await P.sendRequest(ctx.client, P.Detect, null);
  } catch (e) {
    ctx.log(`detect failed: ${(e as Error).message}`);
  }
  const first = configured !== 'auto' ? configured : (detected?.framework ?? 'auto');
  const items = [first, ...FRAMEWORK_CHOICES.filter((f) => f !== first)].map((f) => ({
    label: f,
    description: [
      f === detected?.framework && `detected (${detected.language})`,
      f === configured && configured !== 'auto' && 'amtp.defaultFramework',
    ]
      .filter(Boolean)
      .join(' · '),
  }));
  return pickLabel(items, 'AMTP: test framework', 'Which framework should the tests use?');
}

/** The label of the picked item, typed as the choices it was built from; undefined when dismissed. */
async function pickLabel<T extends string>(
  items: (vscode.QuickPickItem & { label: T })[],
  title: string,
  placeHolder: string,
): Promise<T | undefined> {
  return (await vscode.window.showQuickPick(items, { title, placeHolder, ignoreFocusOut: true }))?.label;
}

export async function generate(
  ctx: Ctx,
  args?: Partial<Pick<P.GenerateParams, 'depth' | 'framework' | 'scope' | 'intoExisting'>>,
): Promise<P.RunView | undefined> {
  if (!requireTrust('Generate Tests')) return undefined;
  const depth = args?.depth ?? (await pickDepth());
  if (!depth) return undefined;
  const framework = args?.framework ?? (await pickFramework(ctx));
  if (!framework) return undefined;
  const scope = args?.scope;
  ctx.log(`generate: depth=${depth} framework=${framework}${scope?.only ? ` only=${scope.only.join(',')}` : ''}`);
  const run = await startWithProgress(
    ctx.client,
    ctx.model,
    scope ? `AMTP: generating tests for ${describeScope(scope)}` : 'AMTP: generating tests',
    (workDoneToken) =>
      P.sendRequest(ctx.client, P.Generate, {
        depth,
        framework,
        workDoneToken,
        ...(scope ? { scope } : {}),
        // absent: the server uses the amtp.intoExistingTestFile setting
        ...(args?.intoExisting !== undefined ? { intoExisting: args.intoExisting } : {}),
      }),
  );
  return announce(ctx, run);
}

function describeScope(scope: NonNullable<P.GenerateParams['scope']>): string {
  const only = scope.only ?? [];
  return only.length === 1 ? only[0] : `${only.length} targets`;
}

/** A scoped run uses the default depth and framework (settings): a CodeLens click asks nothing more. */
function defaults(): Pick<P.GenerateParams, 'depth' | 'framework'> {
  const cfg = vscode.workspace.getConfiguration('amtp');
  const depth = cfg.get<P.Depth>('defaultDepth') ?? 'standard';
  const framework = cfg.get<P.FrameworkChoice>('defaultFramework') ?? 'auto';
  return { depth: DEPTHS.includes(depth) ? depth : 'standard', framework: FRAMEWORK_CHOICES.includes(framework) ? framework : 'auto' };
}

function relativeTo(ctx: Ctx, uri: vscode.Uri | undefined): string | undefined {
  const root = ctx.root();
  if (!uri || !root || uri.scheme !== 'file') return undefined;
  const rel = path.relative(root.fsPath, uri.fsPath).split(path.sep).join('/');
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : undefined;
}

/** "Generate Tests for This File" (editor and explorer context menus, the palette). */
export async function generateForFile(ctx: Ctx, uri?: vscode.Uri): Promise<P.RunView | undefined> {
  const rel = relativeTo(ctx, uri ?? vscode.window.activeTextEditor?.document.uri);
  if (!rel) return void vscode.window.showInformationMessage('AMTP: open a file of this workspace to generate tests for it.');
  return generate(ctx, { ...defaults(), scope: { only: [rel] } });
}

/** The CodeLens above an exported function or class. */
export async function generateForSymbol(ctx: Ctx, uri: vscode.Uri, symbol: string): Promise<P.RunView | undefined> {
  const rel = relativeTo(ctx, uri);
  if (!rel) return undefined;
  return generate(ctx, { ...defaults(), scope: { only: [`${rel}#${symbol}`] } });
}

/** "Generate Tests for Selection": the exported functions and classes the selection touches. */
export async function generateForSelection(ctx: Ctx): Promise<P.RunView | undefined> {
  const editor = vscode.window.activeTextEditor;
  const rel = relativeTo(ctx, editor?.document.uri);
  if (!editor || !rel) return void vscode.window.showInformationMessage('AMTP: select code in a file of this workspace first.');
  const { symbols } = await P.sendRequest(ctx.client, P.ExportedSymbols, { file: rel });
  const sel = editor.selection;
  const touched = symbols.filter((s) => s.line - 1 <= sel.end.line && s.endLine - 1 >= sel.start.line);
  if (!touched.length) return void vscode.window.showInformationMessage('AMTP: the selection touches no exported function or class.');
  return generate(ctx, { ...defaults(), scope: { only: touched.map((s) => `${rel}#${s.name}`) } });
}

export async function resume(ctx: Ctx, arg?: TreeNode | string): Promise<P.RunView | undefined> {
  if (!requireTrust('Resume Run')) return undefined;
  const runId = runIdOf(arg) ?? (await pickRun(ctx, 'Resume which run?', (r) => r.status !== 'completed' && r.status !== 'running'));
  if (!runId) return undefined;
  const run = await startWithProgress(ctx.client, ctx.model, 'AMTP: resuming run', (workDoneToken) =>
    P.sendRequest(ctx.client, P.Resume, { runId, workDoneToken }),
  );
  return announce(ctx, run);
}

function announce(ctx: Ctx, run: P.RunView | undefined): P.RunView | undefined {
  if (!run) return run;
  ctx.log(`run ${run.runId}: ${describeRun(run)}${run.reason ? ` — ${run.reason}` : ''}`);
  const show = run.status === 'completed' ? vscode.window.showInformationMessage : vscode.window.showWarningMessage;
  // One line; the whole reason and every count are in the output channel.
  void show(outcomeLine(run), 'Show Cases', 'Show details').then((c) => {
    if (c === 'Show Cases') void vscode.commands.executeCommand('amtp.revealRun', run.runId);
    if (c === 'Show details') void vscode.commands.executeCommand('amtp.showOutput');
  });
  warnAfterApproval(ctx.log, run);
  return run;
}

const FILTER_CHOICES: { filter: CaseFilter; label: string; detail: string }[] = [
  { filter: 'all', label: 'All cases', detail: 'kept tests first, then quarantined, planned, not written and dropped' },
  { filter: 'kept', label: 'Kept', detail: 'tests that are in their files and run' },
  { filter: 'quarantined', label: 'Quarantined', detail: 'tests kept skipped, each with its reason' },
  { filter: 'dropped', label: 'Dropped', detail: 'cases the verifier removed or the engineer did not write' },
];

/** The filter is the view's: every folder's runs show the same cases. */
export async function filterCases(models: RunsModel[]): Promise<CaseFilter | undefined> {
  const picked = await vscode.window.showQuickPick(
    FILTER_CHOICES.map((c) => ({ ...c, description: c.filter === models[0]?.filter ? 'shown now' : undefined })),
    { title: 'AMTP: which cases should the Test Cases view show?' },
  );
  if (picked) for (const m of models) m.setFilter(picked.filter);
  return picked?.filter;
}

export async function crawl(ctx: Ctx): Promise<P.CrawlResult> {
  const r = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'AMTP: crawling' }, () =>
    P.sendRequest(ctx.client, P.Crawl, null),
  );
  const langs = r.languages.map((l) => `${l.name} ${l.files}`).join(', ') || 'none';
  const summary = `${r.project}: ${r.files} files (${langs}); test framework ${r.testFramework || 'none'}; ${r.entryPoints.length} entry point(s), ${r.keyFiles} key files, ${r.examples} documented example(s)`;
  ctx.log(`crawl: ${summary}`);
  void vscode.window.showInformationMessage(`AMTP crawl — ${summary}`);
  return r;
}

export async function cancel(ctx: Ctx, arg?: TreeNode | string): Promise<boolean> {
  const runId = runIdOf(arg) ?? ctx.model.list().find((r) => r.status === 'running')?.runId;
  if (!runId) {
    void vscode.window.showInformationMessage('AMTP: no run is in progress.');
    return false;
  }
  const { cancelled } = await P.sendRequest(ctx.client, P.Cancel, { runId });
  ctx.log(`cancel ${runId}: ${cancelled ? 'requested' : 'not running'}`);
  return cancelled;
}

export async function showRuns(ctx: Ctx): Promise<P.RunView[]> {
  const runs = await refreshRuns(ctx);
  if (!runs.length) {
    void vscode.window.showInformationMessage('AMTP: no runs in this workspace yet.');
    return runs;
  }
  void vscode.commands.executeCommand('amtp.cases.focus');
  void vscode.window
    .showQuickPick(
      ctx.model.list().map((r) => ({ label: r.runId, description: describeRun(r), detail: r.reason })),
      { title: 'AMTP runs (newest first)' },
    )
    .then((pick) => {
      if (!pick) return;
      ctx.log(`run ${pick.label}: ${pick.description}${pick.detail ? ` — ${pick.detail}` : ''}`);
      const run = ctx.model.get(pick.label);
      for (const line of run ? runHealthLines(run) : []) ctx.log(`  ${line}`);
    });
  return runs;
}

async function pickRun(ctx: Ctx, title: string, filter: (r: P.RunView) => boolean): Promise<string | undefined> {
  await refreshRuns(ctx);
  const runs = ctx.model.list().filter(filter);
  if (!runs.length) {
    void vscode.window.showInformationMessage('AMTP: no run to choose from.');
    return undefined;
  }
  return (
    await vscode.window.showQuickPick(
      runs.map((r) => ({ label: r.runId, description: describeRun(r) })),
      { title },
    )
  )?.label;
}

function runIdOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  if (arg && typeof arg === 'object' && 'runId' in arg && typeof (arg as TreeNode).runId === 'string') return (arg as TreeNode).runId;
  return undefined;
}

export async function setApiKey(ctx: Pick<Ctx, 'secrets'>, key?: string): Promise<boolean> {
  const value =
    key ??
    (await vscode.window.showInputBox({
      title: 'AMTP: API key',
      prompt: 'Stored in VS Code SecretStorage; never in settings or logs',
      password: true,
      ignoreFocusOut: true,
    }));
  if (!value?.trim()) return false;
  await ctx.secrets.store(SECRET_KEY, value.trim()); // onDidChange sends it to the server
  void vscode.window.showInformationMessage('AMTP: API key saved in SecretStorage.');
  return true;
}

export async function clearApiKey(ctx: Pick<Ctx, 'secrets'>): Promise<void> {
  await ctx.secrets.delete(SECRET_KEY);
  void vscode.window.showInformationMessage('AMTP: API key cleared.');
}

function approvalOf(ctx: Pick<Ctx, 'approvals'>, arg?: PendingApproval | string): PendingApproval | undefined {
  const found = typeof arg === 'string' ? ctx.approvals.queue.get(arg) : (arg ?? ctx.approvals.queue.latest());
  if (!found) void vscode.window.showInformationMessage('AMTP: no approval is pending.');
  return found;
}

export function approve(ctx: Pick<Ctx, 'approvals'>, arg?: PendingApproval | string): boolean {
  const a = approvalOf(ctx, arg);
  return !!a && ctx.approvals.approve(a.params.approvalId);
}

export async function reject(ctx: Pick<Ctx, 'approvals'>, arg?: PendingApproval | string, note?: string): Promise<boolean> {
  const a = approvalOf(ctx, arg);
  return !!a && ctx.approvals.reject(a.params.approvalId, note);
}

export function approveAll(ctx: Pick<Ctx, 'approvals'>, arg?: PendingApproval | string): number {
  const a = approvalOf(ctx, arg);
  return a ? ctx.approvals.approveAll(a.params.runId) : 0;
}

function recordingsDir(ctx: Ctx): string | undefined {
  const root = ctx.root();
  return root && path.join(root.fsPath, '.amtp', 'recordings');
}

async function pickRecording(ctx: Ctx): Promise<string | undefined> {
  const dir = recordingsDir(ctx);
  const files =
    dir && fs.existsSync(dir)
      ? fs
          .readdirSync(dir)
          .filter((f) => f.endsWith('.jsonl'))
          .sort()
          .reverse()
      : [];
  if (!dir || !files.length) {
    void vscode.window.showInformationMessage('AMTP: no recordings in .amtp/recordings. Turn on "amtp.record" and generate.');
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(files, { title: 'AMTP: recordings (newest first)' });
  return pick && path.join(dir, pick);
}

export async function openRecording(ctx: Ctx, file?: string): Promise<vscode.TextEditor | undefined> {
  const f = file ?? (await pickRecording(ctx));
  return f ? vscode.window.showTextDocument(vscode.Uri.file(f), { preview: false }) : undefined;
}

export async function verifyDeterminism(ctx: Ctx, file?: string | vscode.Uri): Promise<P.VerifyDeterminismResult | undefined> {
  const active = vscode.window.activeTextEditor?.document.uri;
  const f =
    file instanceof vscode.Uri ? file.fsPath : (file ?? (active?.fsPath.endsWith('.jsonl') ? active.fsPath : await pickRecording(ctx)));
  if (!f) return undefined;
  const r = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'AMTP: verifying determinism (two replays)' },
    () => P.sendRequest(ctx.client, P.VerifyDeterminism, { file: f }),
  );
  ctx.log(`verify ${f}: ${r.summary}${r.diff ? `\n${r.diff}` : ''}`);
  (r.identical ? vscode.window.showInformationMessage : vscode.window.showWarningMessage)(`AMTP: ${r.summary}`);
  return r;
}

export async function openCase(ctx: Ctx, c: P.CaseView): Promise<vscode.TextEditor | undefined> {
  const root = ctx.root();
  if (!root) return undefined;
  const file = c.testFile ?? c.target.file;
  const line = c.testFile ? (c.testLine ?? 0) : 0;
  const pos = new vscode.Position(line, 0);
  return vscode.window.showTextDocument(vscode.Uri.joinPath(root, file), { selection: new vscode.Range(pos, pos), preview: true });
}

export async function runTests(ctx: Ctx, arg?: TreeNode | string) {
  if (!requireTrust('Run Tests')) return undefined;
  try {
    return await ctx.testing.runTests(runIdOf(arg));
  } catch (e) {
    void vscode.window.showErrorMessage(`AMTP: ${(e as Error).message}`);
    return undefined;
  }
}

export { refreshRuns };

/** Revokes the standing "Always allow here" answer to running workspace code in this folder. */
export async function revokeAlwaysAllow(ctx: Ctx): Promise<boolean> {
  const revoked = await ctx.standing.revoke();
  ctx.log(revoked ? 'you no longer always allow running workspace code in this folder' : 'no standing "Always allow here" for this folder');
  void vscode.window.showInformationMessage(
    revoked
      ? 'AMTP: running workspace code here asks for your approval again.'
      : 'AMTP: running workspace code here was not always allowed; nothing changed.',
  );
  return revoked;
}
