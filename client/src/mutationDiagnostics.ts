// Surviving mutants of the newest run as diagnostics (Information) on the lines they change, in a
// collection of their own ("AMTP mutation"), refreshed whenever the runs change.
import * as vscode from 'vscode';
import { mutantDiagnostics } from './model/mutation';
import type { RunsModel } from './model/runsModel';

export function registerMutationDiagnostics(model: RunsModel, root: vscode.Uri): vscode.Disposable {
  const collection = vscode.languages.createDiagnosticCollection('AMTP mutation');
  const refresh = () => {
    collection.clear();
    for (const [file, diags] of mutantDiagnostics(model.latest())) {
      collection.set(
        vscode.Uri.joinPath(root, file),
        diags.map((d) => {
          const range = new vscode.Range(d.startLine, d.startColumn, d.endLine, d.endColumn);
          const diag = new vscode.Diagnostic(range, d.message, vscode.DiagnosticSeverity.Information);
          diag.source = 'AMTP mutation';
          return diag;
        }),
      );
    }
  };
  refresh();
  const sub = model.onDidChange(refresh);
  return vscode.Disposable.from(collection, sub);
}
