import { resolveInside } from '../util/safePath';
import { ResponseCache } from './cache';
import { ToolError } from './toolError';
import { walkTree, type WalkOptions, type WalkResult } from './walk';
import * as fs from 'node:fs';

export interface TreeArgs {
  path?: string;
  depth?: number;
  limit?: number;
  include?: string[];
  exclude?: string[];
  sizes?: boolean;
}

/** The walk's result as the tool returns it: the requested path instead of the cache fingerprint. */
export interface TreeResult extends Omit<WalkResult, 'fingerprint'> {
  path: string;
}

const DEFAULT_TREE_LIMIT = 5000;

/**
 * `summary`: the text is the count line alone. For the crawler (readingTools.ts), which reads the
 * structured entries: rendering a line per entry cost a 78k-file tree a visible share of its crawl.
 */
export type TreeText = 'lines' | 'summary';

export async function treeTool(
  root: string,
  args: TreeArgs,
  walkDefaults: WalkOptions,
  cache?: ResponseCache,
  textForm: TreeText = 'lines',
): Promise<{ text: string; structured: Record<string, unknown> }> {
  const start = !args.path || args.path === '.' ? '' : args.path.replace(/\/+$/, '');
  if (start) {
    const abs = await resolveInside(root, start);
    if (!fs.statSync(abs).isDirectory()) throw new ToolError(`not a directory: ${JSON.stringify(args.path)}`);
    if (fs.lstatSync(abs).isSymbolicLink())
      throw new ToolError(`refused: ${JSON.stringify(args.path)} is a symlink; the tree does not follow symlinks`);
  }
  const walk = walkTree(root, {
    ...walkDefaults,
    start,
    depth: args.depth,
    limit: args.limit ?? DEFAULT_TREE_LIMIT,
    include: args.include,
    exclude: args.exclude,
    sizes: args.sizes,
  });
  // The walk is the cost either way; the key (every listed path, size and mtime) spares re-rendering an unchanged tree.
  const key = ResponseCache.key(`repo.tree ${textForm}`, args, walk.fingerprint);
  const cached = (await cache?.fetch(key)) as { text: string; structured: Record<string, unknown> } | undefined;
  if (cached) return cached;
  const result: TreeResult = {
    path: start || '.',
    entries: walk.entries,
    truncated: walk.truncated,
    depthCut: walk.depthCut,
    files: walk.files,
    dirs: walk.dirs,
    bytes: walk.bytes,
    skipped: walk.skipped,
  };
  const out = {
    text: textForm === 'lines' ? renderTree(result) : countLine(result),
    structured: result as unknown as Record<string, unknown>,
  };
  cache?.set(key, out, out.text.length * 4 + 200, true);
  return out;
}

/** Compact text for models: one entry a line, dirs with a trailing slash, sizes in parentheses. */
function renderTree(r: TreeResult): string {
  const lines: string[] = r.entries.map((e) =>
    e.type === 'dir'
      ? `${e.path}/`
      : e.type === 'symlink'
        ? `${e.path} -> (symlink)`
        : e.size === undefined
          ? e.path
          : `${e.path} (${e.size})`,
  );
  lines.push(countLine(r));
  return lines.join('\n');
}

function countLine(r: TreeResult): string {
  const cut = r.depthCut ? `, ${r.depthCut} folder(s) deeper than 256 levels not listed` : '';
  return `[${r.files} files, ${r.dirs} dirs${r.truncated ? ', truncated' : ''}${cut}]`;
}
