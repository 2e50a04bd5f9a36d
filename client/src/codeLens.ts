// "Generate tests" above each exported function and class of JavaScript, TypeScript and Python files.
// The server says which symbols are exported (the crawler's own reading); a lens runs the pipeline
// scoped to that symbol.
import * as vscode from 'vscode';
import * as P from '../../server/src/protocol';

export const CODE_LENS_LANGUAGES = ['javascript', 'javascriptreact', 'typescript', 'typescriptreact', 'python'];

export class GenerateCodeLens implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly sub = vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('amtp.codeLens') && this.changed.fire());

  constructor(
    /** the server of the document's folder and the document's path in it; undefined outside the workspace */
    private readonly locate: (uri: vscode.Uri) => { sender: P.RequestSender; file: string } | undefined,
    private readonly log: (line: string) => void,
  ) {}

  async provideCodeLenses(doc: vscode.TextDocument, token: vscode.CancellationToken): Promise<vscode.CodeLens[]> {
    if (vscode.workspace.getConfiguration('amtp').get('codeLens') === false) return [];
    const at = this.locate(doc.uri);
    if (!at) return [];
    const { sender, file } = at;
    try {
      const { symbols } = await P.sendRequest(sender, P.ExportedSymbols, { file });
      if (token.isCancellationRequested) return [];
      return symbols.map((s) => {
        const at = new vscode.Range(s.line - 1, 0, s.line - 1, 0);
        return new vscode.CodeLens(at, {
          title: '$(beaker) Generate tests',
          tooltip: `AMTP: generate tests for ${s.name}`,
          command: 'amtp.generateForSymbol',
          arguments: [doc.uri, s.name],
        });
      });
    } catch (e) {
      this.log(`CodeLens for ${file}: ${(e as Error).message}`);
      return [];
    }
  }

  dispose(): void {
    this.sub.dispose();
    this.changed.dispose();
  }
}
