// The workspace folders AMTP serves: one FolderSession (language server, runs, Testing items) per
// folder, started and stopped as folders come and go, and the folder a command acts on.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Ctx } from './commands';
import { startFolderSession, type FolderSession, type SharedParts } from './folderSession';
import { chooseFolder } from './model/folderChoice';
import { FolderTree } from './model/folderTree';

const CONTROLLER_ID = 'amtp';

const keyOf = (folder: vscode.WorkspaceFolder): string => folder.uri.toString();

export class Folders implements vscode.Disposable {
  private readonly sessions = new Map<string, FolderSession>();
  /** the Test Cases tree's data: each folder's runs, grouped by folder when there are several */
  readonly tree = new FolderTree();
  private readonly changed = new vscode.EventEmitter<void>();
  /** a folder came or went, a run changed, or the active editor moved to another file */
  readonly onDidChange = this.changed.event;
  private readonly subs: { dispose(): unknown }[];

  constructor(private readonly shared: SharedParts) {
    this.subs = [
      this.changed,
      this.tree.onDidChange(() => this.changed.fire()),
      vscode.window.onDidChangeActiveTextEditor(() => this.changed.fire()),
      vscode.workspace.onDidChangeWorkspaceFolders((e) => void this.update(e.added, e.removed)),
    ];
  }

  /** Starts a session for each folder (all at once); a folder whose server fails to start is logged and left out. */
  async update(added: readonly vscode.WorkspaceFolder[], removed: readonly vscode.WorkspaceFolder[] = []): Promise<void> {
    await Promise.all(removed.map((f) => this.stopOne(keyOf(f))));
    const started = await Promise.all(added.map((f) => this.startOne(f)));
    for (const s of started) if (s) this.sessions.set(keyOf(s.folder), s);
    for (const s of started) if (s) this.tree.add({ key: keyOf(s.folder), name: s.folder.name, model: s.ctx.model });
    this.relabel();
  }

  private async startOne(folder: vscode.WorkspaceFolder): Promise<FolderSession | undefined> {
    // Testing controller ids are unique per extension host: the first keeps the single-folder id.
    const taken = new Set(this.list().map((s) => s.ctx.testing.controller.id));
    const controllerId = taken.has(CONTROLLER_ID) || folder.index > 0 ? `${CONTROLLER_ID}:${keyOf(folder)}` : CONTROLLER_ID;
    const several = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
    try {
      return await startFolderSession(this.shared, folder, { client: several ? `AMTP (${folder.name})` : 'AMTP', controllerId });
    } catch (e) {
      this.shared.log(`the AMTP server for ${folder.name} did not start: ${(e as Error).message}`);
      return undefined;
    }
  }

  private async stopOne(key: string): Promise<void> {
    const s = this.sessions.get(key);
    if (!s) return;
    this.sessions.delete(key);
    this.tree.remove(key);
    await s.stop();
  }

  /** With several folders each Testing controller says whose tests it holds. */
  private relabel(): void {
    for (const s of this.list()) s.ctx.testing.controller.label = this.sessions.size > 1 ? `AMTP · ${s.folder.name}` : 'AMTP';
  }

  /** The sessions in workspace order. */
  list(): FolderSession[] {
    return [...this.sessions.values()].sort((a, b) => a.folder.index - b.folder.index);
  }

  /** The session of the folder that holds `uri`. */
  forUri(uri: vscode.Uri): FolderSession | undefined {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    return folder && this.sessions.get(keyOf(folder));
  }

  /** The session of the folder that holds a file, and the file's path in that folder (the server's terms). */
  locate(uri: vscode.Uri): { session: FolderSession; file: string } | undefined {
    const session = uri.scheme === 'file' ? this.forUri(uri) : undefined;
    const rel = session && path.relative(session.folder.uri.fsPath, uri.fsPath).split(path.sep).join('/');
    return session && rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? { session, file: rel } : undefined;
  }

  /** The folder of the active editor's file, else the first folder: what the status bar shows. */
  current(): FolderSession | undefined {
    const uri = vscode.window.activeTextEditor?.document.uri;
    return (uri && this.forUri(uri)) ?? this.list()[0];
  }

  /**
   * The folder a command acts on: the one its argument names (a tree node, a file, a run id), else
   * the active editor's, else the only one; with several and no hint the person picks one.
   */
  async ctxFor(arg?: unknown): Promise<Ctx | undefined> {
    const editor = vscode.window.activeTextEditor?.document.uri;
    const choice = chooseFolder(
      this.list().map((s) => keyOf(s.folder)),
      this.keyFromArgument(arg),
      editor && this.forUri(editor) && keyOf(this.forUri(editor)!.folder),
    );
    if ('folder' in choice) return this.sessions.get(choice.folder)?.ctx;
    if ('none' in choice) return void vscode.window.showInformationMessage('AMTP: open a folder first.');
    const items = choice.ask.map((key) => ({ key, label: this.sessions.get(key)!.folder.name, description: vscode.Uri.parse(key).fsPath }));
    const pick = await vscode.window.showQuickPick(items, {
      title: 'AMTP: which folder?',
      placeHolder: 'The workspace folder to act on',
      ignoreFocusOut: true,
    });
    return pick && this.sessions.get(pick.key)?.ctx;
  }

  private keyFromArgument(arg: unknown): string | undefined {
    if (arg instanceof vscode.Uri) return this.keyOfSession(this.forUri(arg));
    if (typeof arg === 'string') {
      const owner = this.list().find((s) => s.ctx.model.get(arg));
      if (owner) return keyOf(owner.folder);
      return path.isAbsolute(arg) ? this.keyOfSession(this.forUri(vscode.Uri.file(arg))) : undefined;
    }
    if (arg && typeof arg === 'object' && 'folder' in arg && typeof arg.folder === 'string') return arg.folder;
    if (arg && typeof arg === 'object' && 'runId' in arg && typeof arg.runId === 'string') return this.keyFromArgument(arg.runId);
    return undefined;
  }

  private keyOfSession(s: FolderSession | undefined): string | undefined {
    return s && keyOf(s.folder);
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.sessions.keys()].map((k) => this.stopOne(k)));
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    void this.stopAll();
  }
}
