// activate(): start the language client, register views and commands. Wiring only.
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import * as P from '../../server/src/protocol';
import { ApprovalUi } from './approvals';
import { ApprovalsView } from './approvalsView';
import { CasesView } from './casesView';
import { registerMutationDiagnostics } from './mutationDiagnostics';
import * as cmd from './commands';
import { generateOnSave } from './onSave';
import * as review from './reviewCommands';
import { vscodeLmHandlers } from './lm';
import { createLanguageClient } from './lspClient';
import { RunsModel, type TreeNode } from './model/runsModel';
import { StandingApprovals } from './model/standingApprovals';
import { toServerSettings, userSafeGetter } from './model/settings';
import { CODE_LENS_LANGUAGES, GenerateCodeLens } from './codeLens';
import { createStatusBar } from './statusBar';
import { TestingBridge } from './testing';
import { wireClient } from './wiring';

/** What activate() returns: the extension tests reach the models through it. */
export interface AmtpApi {
  client: LanguageClient;
  model: RunsModel;
  approvals: ApprovalUi;
  testing: TestingBridge;
  output: vscode.LogOutputChannel;
}

let client: LanguageClient | undefined;

const settings = () => toServerSettings(userSafeGetter(vscode.workspace.getConfiguration('amtp')));

export async function activate(context: vscode.ExtensionContext): Promise<AmtpApi> {
  const output = vscode.window.createOutputChannel('AMTP', { log: true });
  const log = (line: string) => output.info(line);
  const root = () => vscode.workspace.workspaceFolders?.[0]?.uri;
  const model = new RunsModel();
  const standing = new StandingApprovals(context.globalState, () => root()?.fsPath);
  const approvals = new ApprovalUi(log, standing);
  const testing = new TestingBridge(model, root, log, {
    run: (p) => P.sendRequest(client!, P.RunTests, p),
    cancel: (runId) => P.sendRequest(client!, P.Cancel, { runId }),
    fileTests: (files) => P.sendRequest(client!, P.FileTests, { files }),
  });
  context.subscriptions.push(
    output,
    approvals,
    testing,
    model.onDidChange(() => testing.sync()),
  );

  client = createLanguageClient(context, output, { trusted: vscode.workspace.isTrusted, settings: settings() });
  const lc = client;
  // The client's own typed overloads take protocol.ts's messages; each handler is disposed with the extension.
  const disposedWithExtension = <D extends vscode.Disposable>(d: D): D => (context.subscriptions.push(d), d);
  const receiver: P.Receiver = {
    onRequest: (type, handler) => disposedWithExtension(lc.onRequest(type, handler)),
    onNotification: (type, handler) => disposedWithExtension(lc.onNotification(type, handler)),
  };
  wireClient(receiver, { runChanged: (p) => model.upsert(p.run), requestApproval: (p) => approvals.handle(p), lm: vscodeLmHandlers(log) });
  await lc.start();

  await keepServerInformed(context, lc, log);

  const ctx: cmd.Ctx = { client: lc, model, approvals, testing, secrets: context.secrets, log, root };
  registerViews(context, ctx);
  registerCommands(context, ctx, output);
  context.subscriptions.push(generateOnSave(ctx));

  // Runs from earlier sessions (or the CLI) fill the tree; failure is not fatal to activation.
  if (root()) void cmd.refreshRuns(ctx).catch((e: Error) => log(`could not list runs: ${e.message}`));
  log(`AMTP client started (trusted: ${vscode.workspace.isTrusted}, provider: ${settings().provider})`);
  return { client: lc, model, approvals, testing, output };
}

/** Sends the server the API key, settings and trust now and whenever they change. */
async function keepServerInformed(context: vscode.ExtensionContext, lc: LanguageClient, log: (line: string) => void): Promise<void> {
  const sendKey = async () => {
    const apiKey = (await context.secrets.get(cmd.SECRET_KEY)) ?? null;
    await P.sendRequest(lc, P.SetCredentials, { apiKey }).catch((e: Error) => log(`setCredentials failed: ${e.message}`));
  };
  context.subscriptions.push(
    context.secrets.onDidChange((e) => e.key === cmd.SECRET_KEY && void sendKey()),
    vscode.workspace.onDidChangeConfiguration(
      (e) => e.affectsConfiguration('amtp') && void P.sendNotification(lc, P.SettingsChanged, settings()),
    ),
    vscode.workspace.onDidGrantWorkspaceTrust(() => void P.sendNotification(lc, P.TrustChanged, { trusted: true })),
  );
  await sendKey();
}

/** The cases and approvals trees, the status bar, the code lenses and the pending-approvals context key. */
function registerViews(context: vscode.ExtensionContext, ctx: cmd.Ctx): void {
  const { client: lc, model, approvals, log, root } = ctx;
  const casesView = new CasesView(model);
  const codeLens = new GenerateCodeLens(
    lc,
    (uri) => {
      const r = root();
      const rel = r && uri.scheme === 'file' ? vscode.workspace.asRelativePath(uri, false) : undefined;
      return rel && rel !== uri.fsPath ? rel : undefined;
    },
    log,
  );
  const approvalsView = new ApprovalsView(approvals.queue);
  const casesTree = vscode.window.createTreeView('amtp.cases', { treeDataProvider: casesView, showCollapseAll: true });
  const folder = root();
  if (folder) context.subscriptions.push(registerMutationDiagnostics(model, folder));
  context.subscriptions.push(
    casesView,
    approvalsView,
    casesTree,
    // "Show Cases" after a run: the tree selects and expands that run, not only the view.
    vscode.commands.registerCommand('amtp.revealRun', (runId: string) => {
      const run = model.get(runId);
      if (run) void casesTree.reveal({ kind: 'run', runId, run }, { select: true, focus: true, expand: true });
    }),
    vscode.window.createTreeView('amtp.approvals', { treeDataProvider: approvalsView }),
    createStatusBar(model, approvals.queue),
    codeLens,
    vscode.languages.registerCodeLensProvider(
      CODE_LENS_LANGUAGES.map((language) => ({ language, scheme: 'file' })),
      codeLens,
    ),
    approvals.queue.onDidChange(
      () => void vscode.commands.executeCommand('setContext', 'amtp.pendingApprovals', approvals.queue.list().length),
    ),
  );
}

/** Every `amtp.*` command of package.json's contributes.commands, bound to its handler in client/src/commands.ts. */
function registerCommands(context: vscode.ExtensionContext, ctx: cmd.Ctx, output: vscode.LogOutputChannel): void {
  const { approvals } = ctx;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- VS Code passes command arguments untyped
  const register = (id: string, fn: (...args: any[]) => unknown) => context.subscriptions.push(vscode.commands.registerCommand(id, fn));
  register('amtp.generate', (args?: Parameters<typeof cmd.generate>[1]) => cmd.generate(ctx, args));
  register('amtp.generateForFile', (uri?: vscode.Uri) => cmd.generateForFile(ctx, uri));
  register('amtp.generateForSymbol', (uri: vscode.Uri, symbol: string) => cmd.generateForSymbol(ctx, uri, symbol));
  register('amtp.generateForSelection', () => cmd.generateForSelection(ctx));
  register('amtp.crawl', () => cmd.crawl(ctx));
  register('amtp.cancel', (arg?) => cmd.cancel(ctx, arg));
  register('amtp.resume', (arg?) => cmd.resume(ctx, arg));
  register('amtp.showRuns', () => cmd.showRuns(ctx));
  register('amtp.refresh', () => cmd.refreshRuns(ctx));
  register('amtp.setApiKey', (key?: string) => cmd.setApiKey(ctx, key));
  register('amtp.clearApiKey', () => cmd.clearApiKey(ctx));
  register('amtp.approve', (arg?) => cmd.approve(ctx, arg));
  register('amtp.reject', (arg?, note?: string) => cmd.reject(ctx, arg, note));
  register('amtp.approveAll', (arg?) => cmd.approveAll(ctx, arg));
  register('amtp.previewApproval', (arg?) => arg && approvals.preview(arg.params));
  register('amtp.openRecording', (file?: string) => cmd.openRecording(ctx, file));
  register('amtp.verifyDeterminism', (file?: string | vscode.Uri) => cmd.verifyDeterminism(ctx, file));
  register('amtp.openCase', (c: P.CaseView) => cmd.openCase(ctx, c));
  register('amtp.runTests', (arg?) => cmd.runTests(ctx, arg));
  register('amtp.showOutput', () => output.show(true));
  register('amtp.filterCases', () => cmd.filterCases(ctx));
  register('amtp.acceptTest', (node?: TreeNode) => review.decideTest(ctx, node, 'accepted'));
  register('amtp.rejectTest', (node?: TreeNode, reason?: string) => review.decideTest(ctx, node, 'rejected', reason));
  register('amtp.answerQuarantine', (node?: TreeNode, verdict?: P.ReviewParams['decisions'][number]['verdict'], reason?: string) =>
    review.answerQuarantine(ctx, node, verdict, reason),
  );
  register('amtp.revokeAlwaysAllow', () => cmd.revokeAlwaysAllow(ctx));
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
