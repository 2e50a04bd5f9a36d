// The Test Cases view: runs → target files → cases, from each folder's RunsModel; with several
// workspace folders, each folder is a root above its runs (model/folderTree.ts).
import * as vscode from 'vscode';
import type * as P from '../../server/src/protocol';
import { describeFileMutation, fileMutationLines } from './model/mutation';
import type { CasesNode, FolderTree } from './model/folderTree';
import { caseIcon, describeCase, PINNED_NOTE, describeRun, runHealthLines, verificationLines, type TreeNode } from './model/runsModel';
import { describeTally, isKept, runLabel, runTally } from './model/runTally';

const STATUS_ICON: Record<P.CaseStatus, [string, string?]> = {
  planned: ['circle-outline'],
  written: ['check'],
  passing: ['pass', 'testing.iconPassed'],
  failing: ['error', 'testing.iconFailed'],
  not_written: ['circle-slash', 'disabledForeground'],
  // verifier outcomes (server/src/verifier)
  flaky: ['warning', 'testing.iconQueued'],
  quarantined: ['bug', 'testing.iconSkipped'],
  dropped: ['trash', 'disabledForeground'],
};

const RUN_ICON: Record<P.RunStatus, string> = {
  running: 'sync~spin',
  completed: 'check-all',
  needs_review: 'warning',
  awaiting_approval: 'shield',
  awaiting_input: 'comment-discussion',
  failed: 'error',
  cancelled: 'circle-slash',
};

export class CasesView implements vscode.TreeDataProvider<CasesNode> {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly sub: { dispose(): void };

  constructor(private readonly tree: FolderTree) {
    this.sub = tree.onDidChange(() => this.emitter.fire());
  }

  getChildren(element?: CasesNode): CasesNode[] {
    return element ? this.tree.children(element) : this.tree.roots();
  }

  /** A file or a case belongs to its run, a run to its folder when there are several (TreeView.reveal asks). */
  getParent(node: CasesNode): CasesNode | undefined {
    return this.tree.parent(node);
  }

  getTreeItem(node: CasesNode): vscode.TreeItem {
    if (node.kind === 'folder') return folderItem(node);
    if (node.kind === 'run') {
      const run = node.run;
      // Each folder's newest run opens expanded: it is the one the person just started.
      const state = this.tree.isNewest(node) ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed;
      const item = new vscode.TreeItem(runLabel(run), state);
      item.id = run.runId;
      // the id last: runs are told apart by scope and time, the id stays findable (amtp runs, the CLI)
      item.description = `${describeRun(run)} · ${run.runId}`;
      item.tooltip = [
        `run ${run.runId} · ${run.params.depth} · ${run.framework ?? run.params.framework}`,
        describeTally(runTally(run)),
        `created ${run.createdAt}`,
        `provider ${run.params.provider}`,
        run.reason,
        run.testCommand && `test command: ${run.testCommand}`,
        ...verificationLines(run),
        ...runHealthLines(run),
      ]
        .filter(Boolean)
        .join('\n');
      item.iconPath = new vscode.ThemeIcon(RUN_ICON[run.status] ?? 'beaker');
      item.contextValue = `amtp.run.${run.status}`;
      return item;
    }
    if (node.kind === 'file') return this.fileItem(node);
    const c = node.case;
    const item = new vscode.TreeItem(c.title, vscode.TreeItemCollapsibleState.None);
    item.id = `${node.runId}:${c.id}`;
    item.description = describeCase(c);
    item.tooltip = new vscode.MarkdownString(
      [
        `**${c.id}** · ${c.priority} · ${c.kind}`,
        c.pinned && PINNED_NOTE,
        `target: \`${c.target.symbol}\` in \`${c.target.file}\``,
        `status: ${c.status}`,
        c.reason && `reason: ${c.reason}`,
        c.testFile && `test: \`${c.testFile}\`:${(c.testLine ?? 0) + 1}`,
        c.confidence !== undefined &&
          `confidence: ${c.confidence}${c.awaitingReview ? ' — below the threshold: keep or reject it (docs/confidence.md)' : ''}`,
      ]
        .filter(Boolean)
        .join('\n\n'),
    );
    const [icon, color] = STATUS_ICON[c.status] ?? ['circle-outline'];
    item.iconPath = new vscode.ThemeIcon(caseIcon(c, icon), color ? new vscode.ThemeColor(color) : undefined);
    item.contextValue = `amtp.case.${c.status}`;
    item.command = { command: 'amtp.openCase', title: 'Open Test', arguments: [c, node.folder] };
    return item;
  }

  private fileItem(node: Extract<TreeNode, { kind: 'file' }>): vscode.TreeItem {
    const item = new vscode.TreeItem(node.file, vscode.TreeItemCollapsibleState.Expanded);
    item.id = `${node.runId}:${node.file}`;
    const kept = node.cases.filter(isKept).length;
    const run = this.tree.modelOf(node)?.get(node.runId);
    item.description = `${kept} kept${kept < node.cases.length ? ` of ${node.cases.length}` : ''}${run ? describeFileMutation(run, node.file) : ''}`;
    const mutation = run ? fileMutationLines(run, node.file) : [];
    if (mutation.length) item.tooltip = [node.file, ...mutation].join('\n');
    item.iconPath = vscode.ThemeIcon.File;
    item.resourceUri = vscode.Uri.file(node.file);
    item.contextValue = 'amtp.file';
    return item;
  }

  dispose(): void {
    this.sub.dispose();
    this.emitter.dispose();
  }
}

/** A workspace folder above its runs (only when there are several folders). */
function folderItem(node: Extract<CasesNode, { kind: 'folder' }>): vscode.TreeItem {
  const item = new vscode.TreeItem(node.name, vscode.TreeItemCollapsibleState.Expanded);
  item.id = `folder:${node.folder}`;
  item.resourceUri = vscode.Uri.parse(node.folder);
  item.tooltip = vscode.Uri.parse(node.folder).fsPath;
  item.iconPath = new vscode.ThemeIcon('root-folder');
  item.contextValue = 'amtp.folder';
  return item;
}
