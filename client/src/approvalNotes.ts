// What an approved diff showed is what lands (issue 27): files the person approved with a diff that
// verification then took tests out of are said as a warning when a run ends, each test and its verdict in the output channel.
import * as vscode from 'vscode';
import type * as P from '../../server/src/protocol';

/** Files the person approved with a diff that verification took tests out of: said as a warning, each test in the output channel. */
export function warnAfterApproval(log: (line: string) => void, run: P.RunView): void {
  const notes = run.verification?.afterApproval ?? [];
  if (!notes.length) return;
  for (const n of notes)
    log(
      `run ${run.runId}: ${n.file}: the diff you approved showed ${n.shown} test(s); verification took out ${n.dropped.length}: ${n.dropped.map((d) => `'${d.title}' (${d.outcome ?? 'gone'}${d.reason ? `: ${d.reason}` : ''})`).join('; ')}`,
    );
  const tests = notes.reduce((k, n) => k + n.dropped.length, 0);
  void vscode.window
    .showWarningMessage(`AMTP: verification took ${tests} test(s) out of ${notes.length} file(s) you approved`, 'Show details')
    .then((c) => c === 'Show details' && void vscode.commands.executeCommand('amtp.showOutput'));
}
