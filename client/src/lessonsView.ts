// The Lessons view: what the next run's generator and engineer will be told, per workspace folder
// (amtp/lessons, server/src/app/lessons.ts). Read at start, again when a run ends (a run's failed
// repairs teach), when folders come and go, and on Refresh (also after a review or a Forget).
import * as vscode from 'vscode';
import * as P from '../../server/src/protocol';
import type { Folders } from './folders';
import { lessonNodes, lessonRow, RunEndWatch, type FolderLessons, type LessonsNode } from './model/lessonsTree';

export class LessonsView implements vscode.TreeDataProvider<LessonsNode>, vscode.Disposable {
  private folders: FolderLessons[] = [];
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly watch = new RunEndWatch();
  private readonly sub: { dispose(): unknown };
  private folderKeys = '';
  /** bumped by each refresh: an older refresh's answers are dropped */
  private generation = 0;

  constructor(private readonly all: Folders) {
    this.sub = all.tree.onDidChange(() => {
      const sessions = all.list();
      const runs = sessions.flatMap((s) =>
        s.ctx.model.list().map((r) => ({ key: `${s.folder.uri.toString()}\n${r.runId}`, status: r.status })),
      );
      const foldersChanged = sessions.map((s) => s.folder.uri.toString()).join('\n') !== this.folderKeys;
      if (this.watch.ended(runs) || foldersChanged) void this.refresh();
    });
  }

  /** Reads every folder's lessons; resolves with what the view now shows. */
  async refresh(): Promise<FolderLessons[]> {
    const generation = ++this.generation;
    const sessions = this.all.list();
    this.folderKeys = sessions.map((s) => s.folder.uri.toString()).join('\n');
    const folders = await Promise.all(
      sessions.map(async (s) => ({
        key: s.folder.uri.toString(),
        name: s.folder.name,
        lessons: await P.sendRequest(s.ctx.client, P.Lessons, null).then(
          (r) => r.lessons,
          (e: Error) => ({ error: e.message }),
        ),
      })),
    );
    if (generation !== this.generation) return this.folders;
    this.folders = folders;
    this.emitter.fire();
    return folders;
  }

  getChildren(parent?: LessonsNode): LessonsNode[] {
    return lessonNodes(this.folders, parent);
  }

  getTreeItem(node: LessonsNode): vscode.TreeItem {
    if (node.kind === 'folder') {
      const item = new vscode.TreeItem(node.name, vscode.TreeItemCollapsibleState.Expanded);
      item.iconPath = new vscode.ThemeIcon('root-folder');
      return item;
    }
    if (node.kind === 'message') {
      const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
      item.iconPath = new vscode.ThemeIcon('info');
      return item;
    }
    const row = lessonRow(node.lesson);
    const item = new vscode.TreeItem(row.label, vscode.TreeItemCollapsibleState.None);
    item.id = `${node.folder}\n${node.lesson.source}\n${node.lesson.id}`;
    item.description = row.description;
    item.tooltip = row.tooltip;
    item.contextValue = row.contextValue;
    item.iconPath = new vscode.ThemeIcon(row.icon);
    return item;
  }

  dispose(): void {
    this.sub.dispose();
    this.emitter.dispose();
  }
}
