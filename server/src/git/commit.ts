// One commit of exactly the given files on top of HEAD, on a new branch, without touching the
// person's checkout: a private index (GIT_INDEX_FILE in a temp folder) starts from HEAD's tree,
// takes the files' bytes as blobs, and becomes a tree and a commit; `update-ref` with an empty old
// value creates the branch only if it does not exist. HEAD, the person's index (their staged
// changes) and the working tree stay as they were, and nothing is pushed.
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { git } from './git';

export type RepoInfo = { root: string; head: string } | { cannot: string };

/** The repository holding `workspace` and its HEAD commit, or why a branch cannot be made there. */
export async function repoOf(workspace: string): Promise<RepoInfo> {
  let top;
  try {
    top = await git(['rev-parse', '--show-toplevel'], { cwd: workspace, okCodes: [128] });
  } catch (e) {
    return { cannot: (e as Error).message }; // e.g. git is not installed
  }
  if (top.code !== 0) return { cannot: 'the workspace is not inside a git repository' };
  const head = await git(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { cwd: workspace, okCodes: [1, 128] });
  if (head.code !== 0) return { cannot: 'the repository has no commit yet (a branch needs a commit to start from)' };
  return { root: await fsp.realpath(top.stdout.trim()), head: head.stdout.trim() };
}

/** Repository-relative paths that .gitignore (or info/exclude) ignores and that are not tracked. */
export async function ignoredPaths(root: string, paths: string[]): Promise<Set<string>> {
  if (!paths.length) return new Set();
  const r = await git(['check-ignore', '-z', '--stdin'], { cwd: root, input: paths.join('\0') + '\0', okCodes: [1] });
  return new Set(r.stdout.split('\0').filter(Boolean));
}

/** The tip of refs/heads/<name> and its commit message, or undefined when there is no such branch. */
export async function branchTip(root: string, name: string): Promise<{ commit: string; message: string } | undefined> {
  const r = await git(['rev-parse', '--verify', '--quiet', `refs/heads/${name}^{commit}`], { cwd: root, okCodes: [1, 128] });
  if (r.code !== 0) return undefined;
  const commit = r.stdout.trim();
  const body = await git(['cat-file', 'commit', commit], { cwd: root });
  return { commit, message: body.stdout.slice(body.stdout.indexOf('\n\n') + 2) };
}

export interface CommitFile {
  /** repository-relative, forward slashes */
  path: string;
  bytes: Buffer;
}

/** Makes the commit and creates the branch. Returns the commit id, or undefined when the files change nothing on HEAD. */
export async function commitOnNewBranch(
  root: string,
  base: string,
  branch: string,
  files: CommitFile[],
  message: string,
): Promise<string | undefined> {
  const tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'amtp-git-'));
  const env = { GIT_INDEX_FILE: path.join(tmp, 'index') };
  try {
    await git(['read-tree', base], { cwd: root, env });
    const modes = await indexModes(
      root,
      env,
      files.map((f) => f.path),
    );
    const lines: string[] = [];
    for (const f of files) {
      const blob = (await git(['hash-object', '-w', '--stdin'], { cwd: root, input: f.bytes })).stdout.trim();
      // An executable test script stays executable; anything else is a plain file.
      lines.push(`${modes.get(f.path) === '100755' ? '100755' : '100644'} ${blob}\t${f.path}`);
    }
    await git(['update-index', '-z', '--index-info'], { cwd: root, env, input: lines.join('\0') + '\0' });
    const tree = (await git(['write-tree'], { cwd: root, env })).stdout.trim();
    const baseTree = (await git(['rev-parse', `${base}^{tree}`], { cwd: root })).stdout.trim();
    if (tree === baseTree) return undefined;
    const commit = (await git(['commit-tree', '--no-gpg-sign', tree, '-p', base, '-F', '-'], { cwd: root, input: message })).stdout.trim();
    // The empty old value: create only. A branch that appeared meanwhile is an error, never moved.
    await git(['update-ref', '-m', 'amtp: branch with generated tests', `refs/heads/${branch}`, commit, ''], { cwd: root });
    return commit;
  } finally {
    await fsp.rm(tmp, { recursive: true, force: true });
  }
}

async function indexModes(root: string, env: Record<string, string>, paths: string[]): Promise<Map<string, string>> {
  const r = await git(['ls-files', '-s', '-z', '--', ...paths.map((p) => `:(literal)${p}`)], { cwd: root, env });
  const modes = new Map<string, string>();
  for (const entry of r.stdout.split('\0').filter(Boolean)) {
    const [meta, file] = entry.split('\t');
    modes.set(file, meta.split(' ')[0]);
  }
  return modes;
}
