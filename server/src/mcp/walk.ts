import * as fs from 'node:fs';
import * as path from 'node:path';
import picomatch from 'picomatch';
import { DEFAULT_SKIP_DIRS, IGNORE_FILES, IgnoreStack } from './ignoreRules';
import { languageOf } from './languages';
import { LstatBatches } from './lstatBatches';
import { ToolError } from './toolError';

type EntryType = 'file' | 'dir' | 'symlink';

export interface TreeEntry {
  path: string;
  type: EntryType;
  /** bytes; absent when the walk ran with sizes: false, 0 for dirs and symlinks */
  size?: number;
  language?: string;
}

export interface WalkOptions {
  /** root-relative directory to start from ('' = root) */
  start?: string;
  /** how many directory levels below `start` to descend; 1 = direct children only */
  depth?: number;
  /** stop after this many entries (and report truncated) */
  limit?: number;
  include?: string[];
  exclude?: string[];
  /** list ignored / default-skipped directories too */
  noDefaultSkips?: boolean;
  /**
   * 'auto' (default) honours .gitignore files only inside a git work tree, like git and ripgrep:
   * outside a repository they mean nothing (Debian's linux-source ships one with `/*`, hiding everything).
   * .amtpignore is always honoured.
   */
  gitignore?: 'auto' | 'always' | 'never';
  /** lstat files for their size (default true); names-only enumeration is about twice as fast */
  sizes?: boolean;
}

export interface WalkResult {
  entries: TreeEntry[];
  /** `limit` cut the list, or a folder was deeper than MAX_DEPTH (see depthCut) */
  truncated: boolean;
  /** folders whose contents were not listed because they are MAX_DEPTH levels down (each named in `skipped`) */
  depthCut: number;
  files: number;
  dirs: number;
  bytes: number;
  skipped: { path: string; reason: string }[];
  /** changes when any listed entry's path, size or mtime changes: the cache key of results derived from the tree */
  fingerprint: string;
}

export const MAX_DEPTH = 256;

/**
 * Enumerates the tree under `root` without following symlinks (so loops cannot hang it).
 * Sync fs calls on purpose: on large trees they are several times faster than the promise API
 * (no thread-pool hop per call). readdir gives names and types; the one lstat per file (for its size
 * and mtime) runs beside the walk in `LstatBatches`, which on a large tree uses a second thread.
 */
export function walkTree(root: string, opts: WalkOptions = {}): WalkResult {
  const limit = opts.limit ?? Number.MAX_SAFE_INTEGER;
  const maxDepth = Math.min(opts.depth ?? MAX_DEPTH, MAX_DEPTH);
  // A depth the caller asked for is their choice; the walk's own limit is a cut, and a cut is never silent.
  const capped = maxDepth === MAX_DEPTH;
  const include = globs(opts.include, 'include');
  const exclude = globs(opts.exclude, 'exclude');
  const sizes = opts.sizes !== false;
  const out: WalkResult = { entries: [], truncated: false, depthCut: 0, files: 0, dirs: 0, bytes: 0, skipped: [], fingerprint: '' };
  const start = (opts.start ?? '').replace(/\/+$/, '');
  const ignoreFiles = useGitignore(root, opts.gitignore ?? 'auto') ? IGNORE_FILES : ['.amtpignore'];
  const skipDefaults = !opts.noDefaultSkips;
  const stats = sizes ? new LstatBatches(root) : undefined;
  /** entry index → index into `stats`, for files */
  const statIndex: number[] = [];
  const visit = (rel: string, depth: number, parentIgnores: IgnoreStack): void => {
    const abs = rel ? `${root}/${rel}` : root;
    let dirents: fs.Dirent[];
    try {
      dirents = fs.readdirSync(abs, { withFileTypes: true });
    } catch (e) {
      out.skipped.push({ path: rel || '.', reason: `directory unreadable (${(e as NodeJS.ErrnoException).code ?? 'error'})` });
      return;
    }
    const ignores = parentIgnores.with(rel ? `${rel}/` : '', readIgnoreFiles(abs, dirents, ignoreFiles));
    const prefix = rel ? `${rel}/` : '';
    const shipped = skipDefaults ? manifestDirs(abs, dirents) : undefined;
    for (const { d, isDir } of gitOrder(dirents)) {
      if (out.entries.length >= limit) {
        out.truncated = true;
        return;
      }
      const childRel = prefix + d.name;
      if (isDir && skipDefaults && DEFAULT_SKIP_DIRS.has(d.name) && !shipped?.has(d.name)) continue;
      if (ignores.size > 0 && ignores.ignores(childRel, isDir)) continue;
      if (exclude && exclude(childRel)) continue;
      if (isDir) {
        out.dirs++;
        if (!include) out.entries.push({ path: childRel, type: 'dir', size: 0 });
        if (depth + 1 < maxDepth) visit(childRel, depth + 1, ignores);
        else if (capped) cutAtDepth(out, root, childRel);
        if (out.truncated && out.entries.length >= limit) return;
      } else if (d.isSymbolicLink()) {
        if (include && !include(childRel)) continue;
        out.entries.push({ path: childRel, type: 'symlink', size: 0 });
      } else if (d.isFile()) {
        if (include && !include(childRel)) continue;
        if (stats) statIndex[out.entries.length] = stats.add(childRel);
        out.entries.push({ path: childRel, type: 'file', size: undefined, language: languageOf(d.name) });
      } else {
        out.skipped.push({ path: childRel, reason: 'not a regular file (fifo, socket or device)' });
      }
    }
  };
  // Recursion depth is bounded by MAX_DEPTH; depth-first in git order keeps the output sorted.
  visit(start, 0, ancestorsIgnores(root, start, ignoreFiles));
  settleFiles(out, stats?.finish(), statIndex);
  return out;
}

/** A folder at the walk's depth limit: counted, named and the walk marked truncated, unless it is empty. */
function cutAtDepth(out: WalkResult, root: string, rel: string): void {
  try {
    if (fs.readdirSync(`${root}/${rel}`).length === 0) return;
  } catch {
    // unreadable (or a path too long to name): reported as cut
  }
  out.depthCut++;
  out.truncated = true;
  out.skipped.push({ path: rel, reason: `deeper than ${MAX_DEPTH} levels: its contents are not listed` });
}

/**
 * Gives the listed files their sizes (when statted), drops the ones deleted while the walk ran, counts
 * files and bytes, and computes the fingerprint over every kept entry's path (and a file's size and mtime).
 */
function settleFiles(out: WalkResult, results: ReturnType<LstatBatches['finish']> | undefined, statIndex: number[]): void {
  const hash = new Fingerprint();
  let kept = 0;
  for (let i = 0; i < out.entries.length; i++) {
    const e = out.entries[i];
    if (e.type === 'file') {
      if (results) {
        const j = statIndex[i];
        const size = results.size(j);
        if (size < 0) continue; // deleted while we walked
        e.size = size;
        out.bytes += size;
        hash.number(results.mtimeMs(j));
        hash.number(size);
      }
      out.files++;
    }
    hash.string(e.path);
    out.entries[kept++] = e;
  }
  out.entries.length = kept;
  out.fingerprint = hash.digest();
}

/** Compiles tool-supplied globs; a pattern picomatch cannot take (e.g. "") is the caller's error, not a crash. */
function globs(patterns: string[] | undefined, what: string): picomatch.Matcher | undefined {
  if (!patterns?.length) return undefined;
  try {
    return picomatch(patterns, { dot: true });
  } catch (e) {
    throw new ToolError(`invalid ${what} pattern ${JSON.stringify(patterns)}: ${(e as Error).message}`);
  }
}

/**
 * Git's tree order: names compared as bytes, a directory as if it ended in '/'. A depth-first walk
 * in this order yields the entries already sorted, so no global sort of the whole list is needed.
 * Keys are built once per entry, not once per comparison.
 */
function gitOrder(dirents: fs.Dirent[]): { d: fs.Dirent; isDir: boolean; key: string }[] {
  const keyed = dirents.map((d) => {
    const isDir = d.isDirectory();
    return { d, isDir, key: isDir ? `${d.name}/` : d.name };
  });
  return keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

const F64 = new Float64Array(1);
const U32 = new Uint32Array(F64.buffer);

/** Two independent 32-bit FNV-1a lanes: cheap per entry (a crypto hash doubled the walk time), ample for cache keys. */
class Fingerprint {
  private a = 0x811c9dc5;
  private b = 0x01000193;
  private n = 0;
  string(s: string): void {
    let a = this.a;
    let b = this.b;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      a = Math.imul(a ^ c, 16777619);
      b = Math.imul(b ^ c, 2246822519) ^ (b >>> 15);
    }
    this.a = Math.imul(a ^ 0xff, 16777619); // separator so 'ab'+'c' differs from 'a'+'bc'
    this.b = b;
    this.n++;
  }
  /** Hashes the number's 8 bytes (no string conversion: this runs twice per file). */
  number(x: number): void {
    F64[0] = x;
    let a = this.a;
    let b = this.b;
    for (let i = 0; i < 2; i++) {
      const w = U32[i];
      a = Math.imul(a ^ w, 16777619);
      b = Math.imul(b ^ w, 2246822519) ^ (b >>> 15);
    }
    this.a = a;
    this.b = b;
  }
  digest(): string {
    return `${(this.a >>> 0).toString(16)}${(this.b >>> 0).toString(16)}-${this.n}`;
  }
}

const NONE: string[] = [];

function readIgnoreFiles(abs: string, dirents: fs.Dirent[], names: string[]): string[] {
  let texts = NONE;
  for (const d of dirents) {
    if (!d.isFile() || !names.includes(d.name)) continue;
    try {
      if (texts === NONE) texts = [];
      texts.push(fs.readFileSync(path.join(abs, d.name), 'utf8'));
    } catch {
      // an unreadable ignore file ignores nothing
    }
  }
  return texts;
}

/**
 * Build folders (`dist`, `build`, `out`) a package.json beside them names in `main`, `module`,
 * `bin` or `exports`: a published package's code often lives only there, so they are walked.
 */
function manifestDirs(abs: string, dirents: fs.Dirent[]): Set<string> | undefined {
  if (!dirents.some((d) => d.name === 'package.json' && d.isFile())) return undefined;
  let json: unknown;
  try {
    const text = fs.readFileSync(`${abs}/package.json`, 'utf8');
    if (text.length > 1 << 20) return undefined;
    json = JSON.parse(text);
  } catch {
    return undefined; // the crawler reports a broken manifest; the walk just keeps its defaults
  }
  if (!json || typeof json !== 'object') return undefined;
  const out = new Set<string>();
  const visitValue = (v: unknown): void => {
    if (typeof v === 'string') {
      const first = v.replace(/^\.\//, '').split('/')[0];
      if (first && first !== 'node_modules' && v.replace(/^\.\//, '').includes('/')) out.add(first);
    } else if (v && typeof v === 'object') for (const x of Object.values(v)) visitValue(x);
  };
  const j = json as Record<string, unknown>;
  for (const k of ['main', 'module', 'bin', 'exports']) visitValue(j[k]);
  return out;
}

/** When the walk starts below the root, the ignore files of the ancestors still apply. */
function ancestorsIgnores(root: string, start: string, names: string[]): IgnoreStack {
  let stack = IgnoreStack.empty();
  if (!start) return stack;
  const parts = start.split('/');
  for (let i = 0; i < parts.length; i++) {
    const rel = parts.slice(0, i).join('/');
    const abs = rel ? path.join(root, rel) : root;
    try {
      stack = stack.with(rel ? `${rel}/` : '', readIgnoreFiles(abs, fs.readdirSync(abs, { withFileTypes: true }), names));
    } catch {
      return stack;
    }
  }
  return stack;
}

const gitRootCache = new Map<string, boolean>();

/** True when `root` or an ancestor holds `.git` (a dir, or a file for worktrees and submodules). */
function insideGitWorkTree(root: string): boolean {
  const cached = gitRootCache.get(root);
  if (cached !== undefined) return cached;
  let dir = path.resolve(root);
  let found = false;
  for (;;) {
    if (fs.existsSync(path.join(dir, '.git'))) {
      found = true;
      break;
    }
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  gitRootCache.set(root, found);
  return found;
}

function useGitignore(root: string, mode: 'auto' | 'always' | 'never'): boolean {
  return mode === 'always' || (mode === 'auto' && insideGitWorkTree(root));
}
