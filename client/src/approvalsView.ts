// The Approvals view: pending high-risk actions with inline ✓ / ✗.
import * as vscode from 'vscode';
import type { ApprovalQueue, PendingApproval } from './model/approvalQueue';
import { describeApproval } from './model/approvalQueue';

export class ApprovalsView implements vscode.TreeDataProvider<PendingApproval> {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly sub: { dispose(): void };

  constructor(private readonly queue: ApprovalQueue) {
    this.sub = queue.onDidChange(() => this.emitter.fire());
  }

  getChildren(element?: PendingApproval): PendingApproval[] {
    return element ? [] : this.queue.list();
  }

  getTreeItem(a: PendingApproval): vscode.TreeItem {
    const p = a.params;
    const item = new vscode.TreeItem(p.diff?.path ?? p.target ?? p.tool, vscode.TreeItemCollapsibleState.None);
    item.id = p.approvalId;
    item.description = `${p.risk} · ${p.tool}`;
    item.tooltip = new vscode.MarkdownString(`**${describeApproval(p)}**\n\n${p.summary}\n\nrun \`${p.runId}\``);
    item.contextValue = 'amtp.approval';
    item.iconPath = new vscode.ThemeIcon(p.risk === 'high' ? 'warning' : 'question');
    item.command = { command: 'amtp.previewApproval', title: 'Preview', arguments: [a] };
    return item;
  }

  dispose(): void {
    this.sub.dispose();
    this.emitter.dispose();
  }
}
