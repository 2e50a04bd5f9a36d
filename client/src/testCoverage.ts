// What a coverage run reports to the Testing view: per source file the statements covered (its
// per-line detail, for loadDetailedCoverage) and the branch arms counted on the file.
import * as vscode from 'vscode';
import type * as P from '../../server/src/protocol';

export class CoverageReport {
  /** the last coverage run's details by file URI */
  private readonly byUri = new Map<string, vscode.FileCoverageDetail[]>();
  /** what the last coverage run reported, per source file */
  readonly shown: { path: string; covered: number; total: number }[] = [];

  clear(): void {
    this.shown.splice(0);
  }

  details(uri: vscode.Uri): vscode.FileCoverageDetail[] {
    return this.byUri.get(uri.toString()) ?? [];
  }

  add(testRun: vscode.TestRun, root: vscode.Uri, file: P.FileCoverageView): void {
    const uri = vscode.Uri.joinPath(root, file.path);
    this.byUri.set(
      uri.toString(),
      file.statements.map((s) => new vscode.StatementCoverage(s.count, new vscode.Position(s.line, s.character))),
    );
    const covered = file.statements.filter((s) => s.count > 0).length;
    const branches = file.branches.length
      ? new vscode.TestCoverageCount(file.branches.filter((b) => b.covered).length, file.branches.length)
      : undefined;
    testRun.addCoverage(new vscode.FileCoverage(uri, new vscode.TestCoverageCount(covered, file.statements.length), branches));
    this.shown.push({ path: file.path, covered, total: file.statements.length });
  }
}
