// Read-only before/after documents for approval previews. The proposed text lives only in memory
// under the amtp-diff: scheme, so previewing a write never touches the real file.
import * as vscode from 'vscode';

export const DIFF_SCHEME = 'amtp-diff';

export class DiffContentProvider implements vscode.TextDocumentContentProvider {
  private readonly docs = new Map<string, string>();
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;

  /** Registers both sides of an approval's diff and returns their URIs. */
  put(approvalId: string, filePath: string, before: string | null, after: string): { before: vscode.Uri; after: vscode.Uri } {
    const make = (side: 'before' | 'after', text: string) => {
      // The path keeps the file name (and so the language mode); the query keeps approvals apart.
      const uri = vscode.Uri.from({
        scheme: DIFF_SCHEME,
        path: `/${side}/${filePath.replace(/^\/+/, '')}`,
        query: `approval=${encodeURIComponent(approvalId)}`,
      });
      this.docs.set(uri.toString(), text);
      this.emitter.fire(uri);
      return uri;
    };
    return { before: make('before', before ?? ''), after: make('after', after) };
  }

  drop(approvalId: string): void {
    const q = `approval=${encodeURIComponent(approvalId)}`;
    for (const key of [...this.docs.keys()]) if (vscode.Uri.parse(key).query === q) this.docs.delete(key);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.docs.get(uri.toString()) ?? '';
  }

  dispose(): void {
    this.emitter.dispose();
    this.docs.clear();
  }
}
