// Server→client approval requests: diff preview from virtual documents + Approve / Reject /
// Approve all, from a notification, the Approvals view or a command — the first answer wins.
import * as vscode from 'vscode';
import type * as P from '../../server/src/protocol';
import { ApprovalQueue, describeApproval } from './model/approvalQueue';
import { DIFF_SCHEME, DiffContentProvider } from './diffContent';
import type { StandingApprovals } from './model/standingApprovals';

const APPROVE = 'Approve';
const REJECT = 'Reject';
const APPROVE_ALL = 'Approve all in this run';
const ALWAYS = 'Always allow here';

export class ApprovalUi implements vscode.Disposable {
  readonly queue: ApprovalQueue;
  private readonly diffs = new DiffContentProvider();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly log: (line: string) => void) {
    this.queue = new ApprovalQueue({
      timeoutSeconds: () => vscode.workspace.getConfiguration('amtp').get<number>('approvalTimeoutSeconds'),
    });
    this.disposables.push(vscode.workspace.registerTextDocumentContentProvider(DIFF_SCHEME, this.diffs), this.diffs);
  }

  /**
   * The amtp/requestApproval handler. Must not throw: any failure answers `rejected`, never a write.
   * `standing`: "Always allow running workspace code here" of the asking server's folder
   * (machine-scoped, never in the repository).
   */
  async handle(params: P.ApprovalParams, standing?: StandingApprovals): Promise<P.ApprovalResult> {
    try {
      if (standing?.covers(params)) {
        this.log(
          `approval ${params.approvalId} (${describeApproval(params)}): approved by your standing "Always allow here" for this folder (revoke: AMTP: Stop Always Allowing Workspace Code Here)`,
        );
        return { decision: 'approved', note: 'always allowed running workspace code in this folder (a decision kept on this machine)' };
      }
      if (this.queue.isPreApproved(params)) {
        this.log(`approval ${params.approvalId} (${describeApproval(params)}): approved by "Approve all in this run"`);
        return await this.queue.request(params);
      }
      const answer = this.queue.request(params);
      this.log(`approval requested ${params.approvalId}: ${describeApproval(params)} — ${params.summary}`);
      if (params.diff) void this.preview(params).catch((e) => this.log(`diff preview failed: ${(e as Error).message}`));
      void this.notify(params, standing);
      const result = await answer;
      this.log(`approval ${params.approvalId}: ${result.decision}${result.note ? ` (note: ${result.note})` : ''}`);
      void this.closePreview(params.approvalId);
      return result;
    } catch (e) {
      this.log(`approval ${params.approvalId} failed, answering rejected: ${(e as Error).message}`);
      return { decision: 'rejected', note: `client error: ${(e as Error).message}` };
    }
  }

  /** Opens the read-only diff of a pending file write. */
  async preview(params: P.ApprovalParams): Promise<void> {
    if (!params.diff) {
      void vscode.window.showInformationMessage(`${describeApproval(params)}\n${params.summary}`);
      return;
    }
    const { before, after } = this.diffs.put(params.approvalId, params.diff.path, params.diff.before, params.diff.after);
    const title = `AMTP approval: ${params.diff.path} (${params.diff.before === null ? 'new file' : 'current ↔ proposed'})`;
    await vscode.commands.executeCommand('vscode.diff', before, after, title, { preview: true, preserveFocus: true });
  }

  private async notify(params: P.ApprovalParams, standing: StandingApprovals | undefined): Promise<void> {
    const choice = await vscode.window.showWarningMessage(
      `AMTP asks for approval: ${describeApproval(params)}. ${params.summary}`,
      APPROVE,
      REJECT,
      APPROVE_ALL,
      ...(standing?.offers(params) ? [ALWAYS] : []),
    );
    if (!this.queue.has(params.approvalId)) return; // answered elsewhere first
    if (choice === ALWAYS) {
      await standing?.allow();
      this.log(
        'you always allow running workspace code in this folder (on this machine); AMTP: Stop Always Allowing Workspace Code Here revokes it',
      );
      this.queue.decide(params.approvalId, 'approved', 'always allowed here');
    } else if (choice === APPROVE) this.queue.decide(params.approvalId, 'approved');
    else if (choice === APPROVE_ALL) this.queue.approveAll(params.runId);
    else if (choice === REJECT) await this.reject(params.approvalId);
  }

  approve(approvalId: string): boolean {
    return this.queue.decide(approvalId, 'approved');
  }

  approveAll(runId: string): number {
    return this.queue.approveAll(runId);
  }

  /** Rejects, with an optional note from an input box (Escape or empty = no note). */
  async reject(approvalId: string, note?: string): Promise<boolean> {
    if (!this.queue.has(approvalId)) return false;
    const text =
      note ??
      (await vscode.window.showInputBox({
        title: 'AMTP: reject',
        prompt: 'Optional note for the run audit (why was this rejected?)',
        placeHolder: 'e.g. keep my hand-written test file',
        ignoreFocusOut: true,
      }));
    return this.queue.decide(approvalId, 'rejected', text?.trim() || undefined);
  }

  private async closePreview(approvalId: string): Promise<void> {
    this.diffs.drop(approvalId);
    const q = `approval=${encodeURIComponent(approvalId)}`;
    const tabs = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter((t) => {
        const input = t.input;
        return input instanceof vscode.TabInputTextDiff && input.modified.scheme === DIFF_SCHEME && input.modified.query === q;
      });
    if (tabs.length) await vscode.window.tabGroups.close(tabs, true);
  }

  dispose(): void {
    this.queue.rejectAll('VS Code client shut down before a decision');
    for (const d of this.disposables) d.dispose();
  }
}
