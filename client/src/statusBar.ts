// A status bar item for the active run: stage while running, the outcome afterwards.
import * as vscode from 'vscode';
import type { RunsModel } from './model/runsModel';
import { describeTally, runTally } from './model/runTally';
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
    const t = runTally(run);
    const icon = run.status === 'running' ? '$(sync~spin)' : run.status === 'completed' ? '$(beaker)' : '$(warning)';
    const counts =
      run.status === 'running' ? `${t.planned} planned` : `${t.kept} kept in ${t.keptFiles} file${t.keptFiles === 1 ? '' : 's'}`;
    item.text = `${icon} AMTP: ${run.status === 'running' ? run.stage : run.status.replace('_', ' ')} · ${counts}${waiting ? ` · $(shield) ${waiting}` : ''}`;
    item.tooltip = `Run ${run.runId}\n${describeTally(t)}${waiting ? `\n${waiting} approval(s) waiting` : ''}`;
    item.command = waiting ? 'amtp.approvals.focus' : 'amtp.cases.focus';
    item.show();
  };
  const subs = [model.onDidChange(update), approvals.onDidChange(update)];
  update();
  return { dispose: () => (subs.forEach((s) => s.dispose()), item.dispose()) };
}
