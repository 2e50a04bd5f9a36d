// Keeps the Testing view's list of the workspace's test files current: the server lists them
// (amtp/workspaceTestFiles: the files the project's test command runs); a file created or deleted
// lists them again (once per burst of events), a changed or opened file is read again, so its
// tests and gutter icons follow the editor.
import * as vscode from 'vscode';
import type * as P from '../../server/src/protocol';
import { mayBeTestFile } from './model/testItems';

/** Events of one save-all or checkout come in bursts: one listing after the burst. */
const SETTLE_MS = 300;

export interface TestFileWatchHooks {
  list(): Promise<P.WorkspaceTestFilesResult>;
  /** the list changed */
  listed(files: string[]): void;
  /** a file changed on disk or was opened in an editor (workspace-relative) */
  touched(file: string): void;
  log(line: string): void;
}

export class TestFileWatch implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** settles when the latest listing has reached the view */
  listing: Promise<void> = Promise.resolve();

  constructor(
    private readonly root: vscode.Uri,
    private readonly hooks: TestFileWatchHooks,
  ) {}

  /** Lists the files now and follows the workspace from here on. */
  start(): void {
    const watcher = vscode.workspace.createFileSystemWatcher(
      new vscode.RelativePattern(this.root, '**/*.{js,cjs,mjs,jsx,ts,cts,mts,tsx,py}'),
    );
    const relisted = (uri: vscode.Uri) => mayBeTestFile(this.relative(uri) ?? '') && this.relistSoon();
    this.disposables.push(
      watcher,
      watcher.onDidCreate(relisted),
      watcher.onDidDelete(relisted),
      watcher.onDidChange((uri) => this.touch(uri)),
      vscode.workspace.onDidOpenTextDocument((doc) => this.touch(doc.uri)),
    );
    this.relist();
    for (const editor of vscode.window.visibleTextEditors) this.touch(editor.document.uri);
  }

  /** Asks the server for the list again; `listing` settles when the view has it. */
  relist(): Promise<void> {
    this.listing = this.hooks
      .list()
      .then((r) => {
        if (r.truncated) this.hooks.log(`the Testing view lists the first ${r.files.length} test files (${r.source})`);
        this.hooks.listed(r.files);
      })
      .catch((e: Error) => this.hooks.log(`could not list the workspace's test files: ${e.message}`));
    return this.listing;
  }

  private relistSoon(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.relist(), SETTLE_MS);
  }

  private touch(uri: vscode.Uri): void {
    const rel = this.relative(uri);
    if (rel && mayBeTestFile(rel)) this.hooks.touched(rel);
  }

  /** The workspace-relative path of a file inside this folder, else undefined. */
  private relative(uri: vscode.Uri): string | undefined {
    if (uri.scheme !== this.root.scheme) return undefined;
    const base = this.root.path.endsWith('/') ? this.root.path : `${this.root.path}/`;
    return uri.path.startsWith(base) ? uri.path.slice(base.length) : undefined;
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
