// What changed since a git ref, as the working tree has it: files that differ from REF (staged or
// not) with the line ranges that changed, and untracked files (not ignored). Paths are relative to
// `workspace`, which may be a folder inside the repository.
import * as path from 'node:path';
import { promises as fsp } from 'node:fs';
import { parsePatch } from 'diff';
import { git } from './git';

export interface Changes {
  /** workspace-relative file → changed line ranges of the working-tree version (1-based, inclusive) */
  changed: Map<string, [number, number][]>;
  /** new files git does not track yet: every symbol in them counts as changed */
  untracked: string[];
}

export async function changesSince(workspace: string, ref: string): Promise<Changes | { cannot: string }> {
  const top = await git(['rev-parse', '--show-toplevel'], { cwd: workspace, okCodes: [128] }).catch((e: Error) => ({
    code: -1,
    stdout: e.message,
  }));
  if (top.code !== 0) return { cannot: top.code === -1 ? top.stdout : 'the workspace is not inside a git repository' };
  const root = await fsp.realpath(top.stdout.trim());
  const real = await fsp.realpath(workspace);
  const verified = await git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`], {
    cwd: workspace,
    okCodes: [1, 128],
  });
  if (verified.code !== 0) return { cannot: `"${ref}" names no commit in this repository` };
  const commit = verified.stdout.trim();
  // -U0: hunks are exactly the changed lines. Submodules are not looked into: git would start itself
  // inside each one, under that repository's own config (git.ts switches off what this one's runs).
  const diff = await git(['diff', '--no-color', '--no-renames', '--ignore-submodules=all', '-U0', commit, '--', '.'], {
    cwd: workspace,
  });
  const changed = new Map<string, [number, number][]>();
  for (const file of parsePatch(diff.stdout)) {
    const name = file.newFileName?.replace(/^b\//, '');
    if (!name || name === '/dev/null') continue; // a deleted file has nothing left to test
    const rel = fromRoot(root, real, name);
    if (!rel) continue;
    // A hunk that only deletes lines still marks the place it deleted from.
    changed.set(
      rel,
      file.hunks.map((h) => [h.newStart, h.newStart + Math.max(h.newLines, 1) - 1] as [number, number]),
    );
  }
  // ls-files prints paths relative to its working directory: the workspace.
  const others = await git(['ls-files', '--others', '--exclude-standard', '-z', '--', '.'], { cwd: workspace });
  const untracked = others.stdout.split('\0').filter(Boolean);
  return { changed, untracked };
}

/** A repository-relative path as a workspace-relative one, or undefined when it is outside the workspace. */
function fromRoot(root: string, workspace: string, repoRel: string): string | undefined {
  const rel = path.relative(workspace, path.join(root, repoRel)).split(path.sep).join('/');
  return rel && !rel.startsWith('../') && rel !== '..' ? rel : undefined;
}
