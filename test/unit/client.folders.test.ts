// Multi-root workspaces: which folder a command acts on, and the Test Cases tree grouped by folder.
import { strict as assert } from 'node:assert';
import type * as P from '../../server/src/protocol';
import { chooseFolder } from '../../client/src/model/folderChoice';
import { FolderTree } from '../../client/src/model/folderTree';
import { RunsModel } from '../../client/src/model/runsModel';

function run(runId: string, createdAt: string, file = 'src/a.js'): P.RunView {
  return {
    runId,
    status: 'completed',
    stage: 'done',
    createdAt,
    params: { depth: 'standard', framework: 'auto', provider: 'offline' },
    activities: [],
    cases: [{ id: `tc_${runId}`, title: 'a case', priority: 'P1', kind: 'example', target: { file, symbol: 'a' }, status: 'passing' }],
    files: [],
    pendingApprovals: [],
  };
}

const A = 'file:///ws/a';
const B = 'file:///ws/b';

describe('which folder a command acts on', () => {
  it("the argument's folder first, then the active editor's", () => {
    assert.deepEqual(chooseFolder([A, B], B, A), { folder: B });
    assert.deepEqual(chooseFolder([A, B], undefined, A), { folder: A });
  });

  it('a hint that names no served folder is passed over', () => {
    assert.deepEqual(chooseFolder([A, B], 'file:///elsewhere', B), { folder: B });
  });

  it('the only folder needs no hint; several folders and no hint ask; no folder is none', () => {
    assert.deepEqual(chooseFolder([A]), { folder: A });
    assert.deepEqual(chooseFolder([A], 'file:///elsewhere'), { folder: A });
    assert.deepEqual(chooseFolder([A, B], undefined, undefined), { ask: [A, B] });
    assert.deepEqual(chooseFolder([]), { none: true });
  });
});

describe('the Test Cases tree over workspace folders', () => {
  function twoFolders(): { tree: FolderTree; a: RunsModel; b: RunsModel } {
    const tree = new FolderTree();
    const a = new RunsModel(A);
    const b = new RunsModel(B);
    tree.add({ key: A, name: 'a', model: a });
    tree.add({ key: B, name: 'b', model: b });
    a.replaceAll([run('r_a1', '2026-01-01T00:00:01Z'), run('r_a2', '2026-01-01T00:00:03Z')]);
    b.replaceAll([run('r_b1', '2026-01-01T00:00:02Z', 'lib/b.js')]);
    return { tree, a, b };
  }

  it('with one folder the runs are the roots, as in a single-folder workspace', () => {
    const tree = new FolderTree();
    const model = new RunsModel(A);
    tree.add({ key: A, name: 'a', model });
    model.replaceAll([run('r_1', '2026-01-01T00:00:01Z')]);
    assert.deepEqual(
      tree.roots().map((n) => n.kind === 'run' && n.runId),
      ['r_1'],
    );
    assert.equal(tree.grouped(), false);
    assert.equal(tree.parent(tree.roots()[0]), undefined, 'a run is a root');
  });

  it('with several folders each folder is a root over its own runs, newest first', () => {
    const { tree } = twoFolders();
    const roots = tree.roots();
    assert.deepEqual(roots, [
      { kind: 'folder', folder: A, name: 'a' },
      { kind: 'folder', folder: B, name: 'b' },
    ]);
    assert.deepEqual(
      tree.children(roots[0]).map((n) => n.kind === 'run' && n.runId),
      ['r_a2', 'r_a1'],
    );
    const [bRun] = tree.children(roots[1]);
    assert.deepEqual(
      tree.children(bRun).map((n) => n.kind === 'file' && n.file),
      ['lib/b.js'],
    );
  });

  it('every node knows its folder, and its parent chain ends at the folder (TreeView.reveal)', () => {
    const { tree } = twoFolders();
    const [runNode] = tree.children(tree.roots()[1]);
    const [fileNode] = tree.children(runNode);
    const [caseNode] = tree.children(fileNode);
    assert.equal(caseNode.kind, 'case');
    assert.equal(caseNode.folder, B);
    assert.deepEqual(tree.parent(caseNode), runNode);
    assert.deepEqual(tree.parent(runNode), { kind: 'folder', folder: B, name: 'b' });
    assert.deepEqual(tree.findRun('r_b1'), runNode);
    assert.equal(tree.findRun('r_none'), undefined);
  });

  it("each folder's newest run is the one that opens expanded", () => {
    const { tree, a, b } = twoFolders();
    assert.equal(tree.isNewest({ kind: 'run', runId: 'r_a2', run: a.get('r_a2')!, folder: A }), true);
    assert.equal(tree.isNewest({ kind: 'run', runId: 'r_a1', run: a.get('r_a1')!, folder: A }), false);
    assert.equal(tree.isNewest({ kind: 'run', runId: 'r_b1', run: b.get('r_b1')!, folder: B }), true);
  });

  it('a change in any folder reaches the tree; a removed folder leaves it, and one folder is flat again', () => {
    const { tree, b } = twoFolders();
    let changes = 0;
    tree.onDidChange(() => changes++);
    b.upsert(run('r_b2', '2026-01-01T00:00:09Z'));
    assert.equal(changes, 1);
    tree.remove(B);
    b.upsert(run('r_b3', '2026-01-01T00:00:10Z'));
    assert.equal(changes, 2, 'the removed folder no longer reaches the tree');
    assert.deepEqual(
      tree.roots().map((n) => n.kind === 'run' && n.runId),
      ['r_a2', 'r_a1'],
    );
  });
});
