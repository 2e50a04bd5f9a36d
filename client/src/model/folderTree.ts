// The Test Cases tree over the workspace folders. With one folder its runs are the roots, exactly as
// before multi-root; with more, each folder is a root and its runs are its children. Each folder
// keeps its own RunsModel (its server's runs). No 'vscode' import: unit-tested.
import type { RunsModel, TreeNode } from './runsModel';

/** One workspace folder's runs: `key` is the folder's URI (string), `name` what the tree shows. */
export interface FolderRuns {
  key: string;
  name: string;
  model: RunsModel;
}

type FolderNode = { kind: 'folder'; folder: string; name: string };
export type CasesNode = TreeNode | FolderNode;

type Listener = () => void;

export class FolderTree {
  /** in workspace order (the order folders were added) */
  private readonly folders = new Map<string, { runs: FolderRuns; sub: { dispose(): void } }>();
  private readonly listeners = new Set<Listener>();

  onDidChange(listener: Listener): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private fire(): void {
    for (const l of [...this.listeners]) l();
  }

  add(runs: FolderRuns): void {
    this.remove(runs.key);
    this.folders.set(runs.key, { runs, sub: runs.model.onDidChange(() => this.fire()) });
    this.fire();
  }

  remove(key: string): void {
    const f = this.folders.get(key);
    if (!f) return;
    f.sub.dispose();
    this.folders.delete(key);
    this.fire();
  }

  list(): FolderRuns[] {
    return [...this.folders.values()].map((f) => f.runs);
  }

  /** Whether the tree shows folder nodes (more than one folder). */
  grouped(): boolean {
    return this.folders.size > 1;
  }

  /** The model a node's run lives in; a node without a folder belongs to the only folder. */
  modelOf(node: CasesNode): RunsModel | undefined {
    if (node.folder !== undefined) return this.folders.get(node.folder)?.runs.model;
    return this.folders.size === 1 ? this.list()[0].model : undefined;
  }

  /** The run's node in whichever folder holds it (run ids are unique across processes). */
  findRun(runId: string): TreeNode | undefined {
    for (const { model } of this.list()) {
      const node = model.runNode(runId);
      if (node) return node;
    }
    return undefined;
  }

  roots(): CasesNode[] {
    const all = this.list();
    if (all.length === 1) return all[0].model.roots();
    return all.map((f) => ({ kind: 'folder', folder: f.key, name: f.name }));
  }

  children(node: CasesNode): CasesNode[] {
    if (node.kind === 'folder') return this.folders.get(node.folder)?.runs.model.roots() ?? [];
    return this.modelOf(node)?.children(node) ?? [];
  }

  /** A case or file belongs to its run; a run to its folder when the tree is grouped (TreeView.reveal asks). */
  parent(node: CasesNode): CasesNode | undefined {
    if (node.kind === 'folder') return undefined;
    if (node.kind !== 'run') return this.modelOf(node)?.runNode(node.runId);
    const f = this.grouped() && node.folder !== undefined ? this.folders.get(node.folder)?.runs : undefined;
    return f && { kind: 'folder', folder: f.key, name: f.name };
  }

  /** Whether the run is its folder's newest (it opens expanded: the one the person just started). */
  isNewest(node: Extract<TreeNode, { kind: 'run' }>): boolean {
    return this.modelOf(node)?.latest()?.runId === node.runId;
  }
}
