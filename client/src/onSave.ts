// `amtp.generateOnSave` (off by default): saving the active editor's source file starts a run scoped
// to that file, the same run as "Generate Tests for This File": it merges into the file's AMTP tests,
// and asks nothing beyond the run-wide "run workspace code" approval. One run at a time: saves made
// while one runs start one more run afterwards, for the file saved last. The run is the saved file's
// folder's (multi-root: each folder has its own server).
import * as vscode from 'vscode';
import { generateForFile, type Ctx } from './commands';

const SOURCE = /\.(?:[cm]?[jt]sx?|py)$/;
/** A test file (AMTP's or the person's) is not a module to generate tests for. */
const TEST = /\.amtp\.|[\\/](?:test|tests|__tests__|spec)[\\/]|\.(?:test|spec)\.[^\\/]+$|[\\/]test_[^\\/]*\.py$/;

export function generateOnSave(ctxFor: (uri: vscode.Uri) => Ctx | undefined, log: (line: string) => void): vscode.Disposable {
  let running = false;
  let next: vscode.Uri | undefined;
  const run = async (uri: vscode.Uri): Promise<void> => {
    running = true;
    try {
      const ctx = ctxFor(uri);
      if (ctx) await generateForFile(ctx, uri);
    } catch (e) {
      log(`generate on save: ${(e as Error).message}`);
    } finally {
      running = false;
      const again = next;
      next = undefined;
      if (again) void run(again);
    }
  };
  return vscode.workspace.onDidSaveTextDocument((doc) => {
    if (!vscode.workspace.getConfiguration('amtp', doc.uri).get('generateOnSave')) return;
    if (doc !== vscode.window.activeTextEditor?.document || !vscode.workspace.isTrusted) return;
    if (doc.uri.scheme !== 'file' || !SOURCE.test(doc.fileName) || TEST.test(doc.fileName)) return;
    if (running) next = doc.uri;
    else void run(doc.uri);
  });
}
