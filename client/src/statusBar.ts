// A status bar item for the active run of the folder the person works in (the active editor's):
// stage while running, the outcome afterwards. With several folders it names the folder.
import * as vscode from 'vscode';
import type { RunsModel } from './model/runsModel';
import { describeTally, runTally } from './model/runTally';
import type { ApprovalQueue } from './model/approvalQueue';

/** Which folder's runs to show now (`name` only when there are several folders), and when that may change. */
export interface StatusSource {
  current(): { model: RunsModel; name?: string } | undefined;
  onDidChange(listener: () => void): { dispose(): unknown };
}

export function createStatusBar(source: StatusSource, approvals: ApprovalQueue): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('amtp.run', vscode.StatusBarAlignment.Left, 10);
  item.name = 'AMTP run';
  const update = () => {
    const shown = source.current();
    const run = shown?.model.active();
    const waiting = approvals.list().length;
    if (!run) {
      item.hide();
      return;
    }
    const t = runTally(run);
    const icon = run.status === 'running' ? '$(sync~spin)' : run.status === 'completed' ? '$(beaker)' : '$(warning)';
    const counts =
      run.status === 'running' ? `${t.planned} planned` : `${t.kept} kept in ${t.keptFiles} file${t.keptFiles === 1 ? '' : 's'}`;
    item.text = `${icon} AMTP${shown?.name ? ` (${shown.name})` : ''}: ${run.status === 'running' ? run.stage : run.status.replace('_', ' ')} · ${counts}${waiting ? ` · $(shield) ${waiting}` : ''}`;
    item.tooltip = `Run ${run.runId}\n${describeTally(t)}${waiting ? `\n${waiting} approval(s) waiting` : ''}`;
    item.command = waiting ? 'amtp.approvals.focus' : 'amtp.cases.focus';
    item.show();
  };
  const subs = [source.onDidChange(update), approvals.onDidChange(update)];
  update();
  return { dispose: () => (subs.forEach((s) => s.dispose()), item.dispose()) };
}
