// One workspace folder's AMTP: its own language server (started with `workspaceFolder`, so it serves
// that folder alone and keeps its store and approvals in that folder's .amtp/), its runs, its Testing
// items, its mutation diagnostics and its standing "Always allow here" (the pattern of VS Code's
// lsp-multi-server-sample: one client per folder).
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import * as P from '../../server/src/protocol';
import type { ApprovalUi } from './approvals';
import { refreshRuns, SECRET_KEY, type Ctx } from './commands';
import { vscodeLmHandlers } from './lm';
import { createLanguageClient } from './lspClient';
import { RunsModel } from './model/runsModel';
import { toServerSettings, userSafeGetter } from './model/settings';
import { StandingApprovals } from './model/standingApprovals';
import { registerMutationDiagnostics } from './mutationDiagnostics';
import { TestingBridge, type TestRunner } from './testing';
import { wireClient } from './wiring';

/** What every folder's session shares: the extension, its output channel and the one approvals queue. */
export interface SharedParts {
  context: vscode.ExtensionContext;
  output: vscode.LogOutputChannel;
  approvals: ApprovalUi;
  log(line: string): void;
}

/** How this session shows itself: the language client's name and the Testing controller's id. */
export interface SessionNames {
  client: string;
  controllerId: string;
}

export interface FolderSession {
  folder: vscode.WorkspaceFolder;
  ctx: Ctx;
  stop(): Promise<void>;
}

type Disposable = { dispose(): unknown };

/** The folder's settings as its server needs them (user-only keys from the person's settings alone). */
function folderSettings(folder: vscode.WorkspaceFolder): P.ServerSettings {
  return toServerSettings(userSafeGetter(vscode.workspace.getConfiguration('amtp', folder.uri)));
}

/** The Testing view's requests to the folder's server. */
function testRunner(client: LanguageClient): TestRunner {
  return {
    run: (p) => P.sendRequest(client, P.RunTests, p),
    cancel: (runId) => P.sendRequest(client, P.Cancel, { runId }),
    fileTests: (files) => P.sendRequest(client, P.FileTests, { files }),
    workspaceTestFiles: () => P.sendRequest(client, P.WorkspaceTestFiles, null),
  };
}

/** Starts the folder's server and everything that shows its runs; throws (cleaned up) when the server does not start. */
export async function startFolderSession(shared: SharedParts, folder: vscode.WorkspaceFolder, names: SessionNames): Promise<FolderSession> {
  const owned: Disposable[] = [];
  const own = <D extends Disposable>(d: D): D => (owned.push(d), d);
  const log = shared.log;
  const model = new RunsModel(folder.uri.toString());
  const standing = new StandingApprovals(shared.context.globalState, () => folder.uri.fsPath);
  const init = { trusted: vscode.workspace.isTrusted, settings: folderSettings(folder) };
  const client = createLanguageClient(shared.context, shared.output, init, folder, names.client);
  const testing = own(new TestingBridge(model, () => folder.uri, log, testRunner(client), names.controllerId));
  own(model.onDidChange(() => testing.sync()));
  // The client's own typed overloads take protocol.ts's messages; each handler is disposed with the session.
  const receiver: P.Receiver = {
    onRequest: (type, handler) => own(client.onRequest(type, handler)),
    onNotification: (type, handler) => own(client.onNotification(type, handler)),
  };
  wireClient(receiver, {
    runChanged: (p) => model.upsert(p.run),
    requestApproval: (p) => shared.approvals.handle(p, standing),
    lm: vscodeLmHandlers(log),
  });
  const stop = async () => {
    for (const d of owned.splice(0).reverse()) d.dispose();
    await client.stop().catch((e: Error) => log(`stopping the server of ${folder.name}: ${e.message}`));
  };
  try {
    await client.start();
    await keepServerInformed(shared.context, client, folder, log, own);
  } catch (e) {
    await stop();
    throw e;
  }
  log(`AMTP server for ${folder.name} started (provider: ${init.settings.provider})`);
  own(registerMutationDiagnostics(model, folder.uri));
  // The workspace's own test files in the Testing view: listed by the server, followed from here on.
  own(testing.watchWorkspace());
  const ctx: Ctx = {
    client,
    model,
    approvals: shared.approvals,
    testing,
    secrets: shared.context.secrets,
    log,
    root: () => folder.uri,
    standing,
  };
  // Runs from earlier sessions (or the CLI) fill the tree; failure is not fatal to the session.
  void refreshRuns(ctx).catch((e: Error) => log(`could not list the runs of ${folder.name}: ${e.message}`));
  return { folder, ctx, stop };
}

/** Sends the server the API key, settings and trust now and whenever they change. */
async function keepServerInformed(
  context: vscode.ExtensionContext,
  lc: LanguageClient,
  folder: vscode.WorkspaceFolder,
  log: (line: string) => void,
  own: (d: Disposable) => unknown,
): Promise<void> {
  const sendKey = async () => {
    const apiKey = (await context.secrets.get(SECRET_KEY)) ?? null;
    await P.sendRequest(lc, P.SetCredentials, { apiKey }).catch((e: Error) => log(`setCredentials failed: ${e.message}`));
  };
  own(context.secrets.onDidChange((e) => e.key === SECRET_KEY && void sendKey()));
  own(
    vscode.workspace.onDidChangeConfiguration(
      (e) => e.affectsConfiguration('amtp', folder.uri) && void P.sendNotification(lc, P.SettingsChanged, folderSettings(folder)),
    ),
  );
  own(vscode.workspace.onDidGrantWorkspaceTrust(() => void P.sendNotification(lc, P.TrustChanged, { trusted: true })));
  await sendKey();
}
