import * as fs from 'node:fs';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';

export class PathEscapeError extends Error {
  readonly kind = 'PathEscape';
}

/**
 * Resolves a workspace-relative path and proves it stays inside the root,
 * following symlinks of every existing ancestor. Refuses absolute paths,
 * `..` segments, backslashes (Windows-style escapes), NUL and drive letters.
 */
export async function resolveInside(root: string, rel: string): Promise<string> {
  checkRelative(rel);
  const realRoot = await fsp.realpath(root);
  const target = path.resolve(realRoot, rel);
  if (!isWithin(realRoot, target)) throw new PathEscapeError(`path leaves the workspace: ${JSON.stringify(rel)}`);
  // The deepest existing ancestor (or the file itself) must really live inside the root.
  let probe = target;
  for (;;) {
    try {
      const real = await fsp.realpath(probe);
      if (!isWithin(realRoot, real)) throw new PathEscapeError(`path leaves the workspace through a symlink: ${JSON.stringify(rel)}`);
      break;
    } catch (e) {
      const parent = nextProbe(e, probe);
      if (parent === undefined) break;
      probe = parent;
    }
  }
  return target;
}

/**
 * `resolveInside` with synchronous calls (the same realpath(3) underneath), for the read tool: a
 * crawl reads hundreds of small files, and each thread-pool round trip cost more than the call.
 */
export function resolveInsideSync(root: string, rel: string): string {
  checkRelative(rel);
  const realRoot = fs.realpathSync.native(root);
  const target = path.resolve(realRoot, rel);
  if (!isWithin(realRoot, target)) throw new PathEscapeError(`path leaves the workspace: ${JSON.stringify(rel)}`);
  let probe = target;
  for (;;) {
    try {
      const real = fs.realpathSync.native(probe);
      if (!isWithin(realRoot, real)) throw new PathEscapeError(`path leaves the workspace through a symlink: ${JSON.stringify(rel)}`);
      break;
    } catch (e) {
      const parent = nextProbe(e, probe);
      if (parent === undefined) break;
      probe = parent;
    }
  }
  return target;
}

function checkRelative(rel: string): void {
  if (typeof rel !== 'string' || rel.length === 0) throw new PathEscapeError('path is empty');
  if (rel.includes('\0')) throw new PathEscapeError(`path contains NUL: ${JSON.stringify(rel)}`);
  if (rel.includes('\\')) throw new PathEscapeError(`path uses backslashes: ${JSON.stringify(rel)}`);
  if (path.isAbsolute(rel) || /^[A-Za-z]:/.test(rel)) throw new PathEscapeError(`absolute paths are refused: ${JSON.stringify(rel)}`);
  if (rel.split('/').includes('..')) throw new PathEscapeError(`'..' is refused: ${JSON.stringify(rel)}`);
}

/** After a failed realpath: the parent to probe next (a missing path may be created inside), or undefined at the top. */
function nextProbe(e: unknown, probe: string): string | undefined {
  if (e instanceof PathEscapeError) throw e;
  const code = (e as NodeJS.ErrnoException).code;
  if (code !== 'ENOENT' && code !== 'ENOTDIR') throw e;
  const parent = path.dirname(probe);
  return parent === probe ? undefined : parent;
}

function isWithin(root: string, p: string): boolean {
  const r = path.relative(root, p);
  return r === '' || (!r.startsWith('..') && !path.isAbsolute(r));
}

/** Writes via a temp file in the same folder and a rename: readers see the old or the new file, never half. */
export async function atomicWrite(file: string, content: string | Buffer): Promise<void> {
  await fsp.mkdir(path.dirname(file), { recursive: true });
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${Date.now()}.amtp-tmp`);
  try {
    await fsp.writeFile(tmp, content, { encoding: 'utf8', flag: 'wx' });
    await fsp.rename(tmp, file);
  } catch (e) {
    await fsp.rm(tmp, { force: true }).catch(() => undefined);
    throw e;
  }
}

/** Workspace-relative POSIX path of an absolute path already proven inside `realRoot`. */
export function workspaceRelative(realRoot: string, abs: string): string {
  return path.relative(realRoot, abs).split(path.sep).join('/');
}

/**
 * Folders no agent may write into, whatever the approval: a git hook or config is code git runs,
 * `.amtp/` holds the run records and approvals, dependency folders are the package manager's.
 * Returns why a workspace-relative path is protected, or undefined.
 */
export function protectedPath(rel: string): string | undefined {
  const first = rel.split('/')[0];
  if (['.git', '.hg', '.svn'].includes(first)) return 'version-control metadata (hooks and config run as code)';
  if (first === '.amtp') return "AMTP's own run store";
  if (rel.split('/').some((s) => s === 'node_modules' || s === '.venv' || s === 'site-packages')) return 'installed dependencies';
  return undefined;
}

/**
 * A test folder named by model output (test_setup.test_dirs), normalised, or undefined when it
 * cannot be trusted to lower a write's risk: empty, '.', absolute, with '..' or a backslash, or
 * a protected folder.
 */
export function normalizeTestDir(dir: string): string | undefined {
  if (typeof dir !== 'string' || dir.includes('\\') || dir.includes('\0') || path.posix.isAbsolute(dir) || /^[A-Za-z]:/.test(dir))
    return undefined;
  const n = path.posix.normalize(dir).replace(/\/+$/, '');
  if (!n || n === '.' || n === '..' || n.startsWith('../') || protectedPath(n)) return undefined;
  return n;
}
