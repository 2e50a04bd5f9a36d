// The Test Cases view: runs → target files → cases, from the RunsModel.
import * as vscode from 'vscode';
import type * as P from '../../server/src/protocol';
import {
  caseIcon,
  describeCase,
  PINNED_NOTE,
  describeRun,
  runHealthLines,
  verificationLines,
  type RunsModel,
  type TreeNode,
} from './model/runsModel';

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
  failed: 'error',
  cancelled: 'circle-slash',
};

export class CasesView implements vscode.TreeDataProvider<TreeNode> {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly sub: { dispose(): void };

  constructor(private readonly model: RunsModel) {
    this.sub = model.onDidChange(() => this.emitter.fire());
  }

  getChildren(element?: TreeNode): TreeNode[] {
    return element ? this.model.children(element) : this.model.roots();
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    if (node.kind === 'run') {
      const run = node.run;
      // The newest run opens expanded: it is the one the person just started.
      const state =
        this.model.latest()?.runId === run.runId ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed;
      const item = new vscode.TreeItem(`${run.params.depth} · ${run.framework ?? run.params.framework} · ${run.runId}`, state);
      item.id = run.runId;
      item.description = describeRun(run);
      item.tooltip = [
        `run ${run.runId}`,
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
    if (node.kind === 'file') {
      const item = new vscode.TreeItem(node.file, vscode.TreeItemCollapsibleState.Expanded);
      item.id = `${node.runId}:${node.file}`;
      item.description = `${node.cases.length} case${node.cases.length === 1 ? '' : 's'}`;
      item.iconPath = vscode.ThemeIcon.File;
      item.resourceUri = vscode.Uri.file(node.file);
      item.contextValue = 'amtp.file';
      return item;
    }
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
      ]
        .filter(Boolean)
        .join('\n\n'),
    );
    const [icon, color] = STATUS_ICON[c.status] ?? ['circle-outline'];
    item.iconPath = new vscode.ThemeIcon(caseIcon(c, icon), color ? new vscode.ThemeColor(color) : undefined);
    item.contextValue = `amtp.case.${c.status}`;
    item.command = { command: 'amtp.openCase', title: 'Open Test', arguments: [c] };
    return item;
  }

  dispose(): void {
    this.sub.dispose();
    this.emitter.dispose();
  }
}
