// A status bar item for the active run: stage while running, the outcome afterwards.
import * as vscode from 'vscode';
import { statusCounts, type RunsModel } from './model/runsModel';
import type { ApprovalQueue } from './model/approvalQueue';

export function createStatusBar(model: RunsModel, approvals: ApprovalQueue): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('amtp.run', vscode.StatusBarAlignment.Left, 10);
  item.name = 'AMTP run';
  const update = () => {
    const run = model.active();
    const waiting = approvals.list().length;
    if (!run) {
      item.hide();
      return;
    }
    const n = statusCounts(run.cases);
    const icon = run.status === 'running' ? '$(sync~spin)' : run.status === 'completed' ? '$(beaker)' : '$(warning)';
    item.text = `${icon} AMTP: ${run.status === 'running' ? run.stage : run.status.replace('_', ' ')} · ${run.cases.length} cases${waiting ? ` · $(shield) ${waiting}` : ''}`;
    item.tooltip = `Run ${run.runId}\n${n.written + n.passing + n.failing} written, ${n.passing} passing, ${n.failing} failing, ${n.not_written} not written${waiting ? `\n${waiting} approval(s) waiting` : ''}`;
    item.command = waiting ? 'amtp.approvals.focus' : 'amtp.cases.focus';
    item.show();
  };
  const subs = [model.onDidChange(update), approvals.onDidChange(update)];
  update();
  return { dispose: () => (subs.forEach((s) => s.dispose()), item.dispose()) };
}
