// activate(): start a language client per workspace folder, register views and commands. Wiring only.
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { ApprovalUi } from './approvals';
import { ApprovalsView } from './approvalsView';
import { CasesView } from './casesView';
import { LessonsView } from './lessonsView';
import { Folders } from './folders';
import { generateOnSave } from './onSave';
import type { RunsModel } from './model/runsModel';
import { CODE_LENS_LANGUAGES, GenerateCodeLens } from './codeLens';
import { registerCommands } from './registerCommands';
import { createStatusBar } from './statusBar';
import type { TestingBridge } from './testing';

/**
 * What activate() returns: the extension tests reach the models through it. `client`, `model` and
 * `testing` are the first folder's (the only one in a single-folder workspace); `folders` has all.
 */
export interface AmtpApi {
  readonly client: LanguageClient;
  readonly model: RunsModel;
  readonly approvals: ApprovalUi;
  readonly testing: TestingBridge;
  readonly output: vscode.LogOutputChannel;
  readonly folders: Folders;
}

let folders: Folders | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<AmtpApi> {
  const output = vscode.window.createOutputChannel('AMTP', { log: true });
  const log = (line: string) => output.info(line);
  const approvals = new ApprovalUi(log);
  const all = new Folders({ context, output, approvals, log });
  folders = all;
  context.subscriptions.push(output, approvals, all);
  await all.update(vscode.workspace.workspaceFolders ?? []);

  registerViews(context, all, approvals, log);
  registerCommands(context, all, approvals, output);
  context.subscriptions.push(
    generateOnSave((uri) => all.forUri(uri)?.ctx, log),
    approvals.queue.onDidChange(
      () => void vscode.commands.executeCommand('setContext', 'amtp.pendingApprovals', approvals.queue.list().length),
    ),
  );
  log(`AMTP client started (trusted: ${vscode.workspace.isTrusted}, ${all.list().length} folder(s))`);
  const first = () => {
    const s = all.list()[0];
    if (!s) throw new Error('AMTP serves no workspace folder');
    return s.ctx;
  };
  return {
    get client() {
      return first().client;
    },
    get model() {
      return first().model;
    },
    get testing() {
      return first().testing;
    },
    approvals,
    output,
    folders: all,
  };
}

/** The cases, approvals and lessons trees, the status bar and the code lenses. */
function registerViews(context: vscode.ExtensionContext, all: Folders, approvals: ApprovalUi, log: (line: string) => void): void {
  const casesView = new CasesView(all.tree);
  const codeLens = new GenerateCodeLens((uri) => {
    const at = all.locate(uri);
    return at && { sender: at.session.ctx.client, file: at.file };
  }, log);
  const approvalsView = new ApprovalsView(approvals.queue);
  const lessonsView = new LessonsView(all);
  void lessonsView.refresh();
  const casesTree = vscode.window.createTreeView('amtp.cases', { treeDataProvider: casesView, showCollapseAll: true });
  context.subscriptions.push(
    casesView,
    approvalsView,
    casesTree,
    // "Show Cases" after a run: the tree selects and expands that run, not only the view.
    vscode.commands.registerCommand('amtp.revealRun', (runId: string) => {
      const node = all.tree.findRun(runId);
      if (node) void casesTree.reveal(node, { select: true, focus: true, expand: true });
    }),
    vscode.window.createTreeView('amtp.approvals', { treeDataProvider: approvalsView }),
    lessonsView,
    vscode.window.createTreeView('amtp.lessons', { treeDataProvider: lessonsView }),
    // Returns what the view now shows, so the extension tests read it without the UI.
    vscode.commands.registerCommand('amtp.refreshLessons', () => lessonsView.refresh()),
    createStatusBar(
      {
        current: () => {
          const s = all.current();
          return s && { model: s.ctx.model, ...(all.list().length > 1 ? { name: s.folder.name } : {}) };
        },
        onDidChange: (l) => all.onDidChange(l),
      },
      approvals.queue,
    ),
    codeLens,
    vscode.languages.registerCodeLensProvider(
      CODE_LENS_LANGUAGES.map((language) => ({ language, scheme: 'file' })),
      codeLens,
    ),
  );
}

export async function deactivate(): Promise<void> {
  await folders?.stopAll();
  folders = undefined;
}
