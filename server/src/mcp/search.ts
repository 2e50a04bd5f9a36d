import * as fs from 'node:fs';
import * as path from 'node:path';
import { ResponseCache } from './cache';
import { isSecretEnvFile } from '../util/redact';
import { openRegularFileSync } from '../util/regularFile';
import { isBinary } from './readFile';
import { ToolError } from './toolError';
import { walkTree, type WalkOptions } from './walk';

export interface SearchArgs {
  query: string;
  regex?: boolean;
  caseSensitive?: boolean;
  include?: string[];
  exclude?: string[];
  maxResults?: number;
  /** files larger than this are not searched */
  maxFileBytes?: number;
}

interface SearchMatch {
  path: string;
  line: number;
  text: string;
}

export interface SearchResult {
  matches: SearchMatch[];
  truncated: boolean;
  filesSearched: number;
}

const MAX_LINE_CHARS = 4096; // longer lines (minified code) are skipped: they cost regex time and say little
const SHOWN_CHARS = 300;
const TIME_BUDGET_MS = 5_000;

/**
 * Literal or regex search over the same filtered tree as repo.tree; text files only, bounded in results and time.
 * With `redact`, a line is searched as it would be shown: a query cannot find (and so probe, a character
 * at a time) a credential that the result would hide.
 */
export function searchWorkspace(
  root: string,
  args: SearchArgs,
  walkDefaults: WalkOptions,
  cache?: ResponseCache,
  redact?: (text: string) => string,
): SearchResult {
  const s = prepareSearch(root, args, walkDefaults, redact);
  const cached = cache?.get(s.key) as SearchResult | undefined;
  return cached ?? runSearch(root, s, cache, redact);
}

/** The same search, also answered from the results other processes shared (`--cache`). */
export async function searchWorkspaceShared(
  root: string,
  args: SearchArgs,
  walkDefaults: WalkOptions,
  cache?: ResponseCache,
  redact?: (text: string) => string,
): Promise<SearchResult> {
  const s = prepareSearch(root, args, walkDefaults, redact);
  const cached = (await cache?.fetch(s.key)) as SearchResult | undefined;
  return cached ?? runSearch(root, s, cache, redact);
}

interface PreparedSearch {
  re: RegExp;
  tree: ReturnType<typeof walkTree>;
  key: string;
  maxResults: number;
  maxFileBytes: number;
}

function prepareSearch(root: string, args: SearchArgs, walkDefaults: WalkOptions, redact?: (text: string) => string): PreparedSearch {
  if (!args.query) throw new ToolError('query is empty');
  const maxResults = Math.min(Math.max(1, args.maxResults ?? 100), 1000);
  const maxFileBytes = args.maxFileBytes ?? 1024 * 1024;
  let re: RegExp;
  try {
    const source = args.regex ? args.query : args.query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    re = new RegExp(source, args.caseSensitive ? '' : 'i');
  } catch (e) {
    throw new ToolError(`invalid regular expression: ${(e as Error).message}`);
  }
  const tree = walkTree(root, { ...walkDefaults, include: args.include, exclude: args.exclude });
  const key = ResponseCache.key('repo.search', { ...args, maxResults, maxFileBytes, redacted: !!redact }, tree.fingerprint);
  return { re, tree, key, maxResults, maxFileBytes };
}

function runSearch(root: string, p: PreparedSearch, cache?: ResponseCache, redact?: (text: string) => string): SearchResult {
  const { re, tree, key, maxResults, maxFileBytes } = p;
  const deadline = Date.now() + TIME_BUDGET_MS;
  const out: SearchResult = { matches: [], truncated: false, filesSearched: 0 };
  for (const e of tree.entries) {
    if (e.type !== 'file' || (e.size ?? 0) > maxFileBytes || isSecretEnvFile(e.path)) continue; // .env files are not served
    if (Date.now() > deadline) {
      out.truncated = true;
      break;
    }
    const buf = readRegularFile(path.join(root, e.path));
    if (!buf) continue; // unreadable, replaced by a symlink since the walk, or hard-linked: not searched
    if (isBinary(buf.subarray(0, 8000))) continue;
    out.filesSearched++;
    const lines = buf.toString('utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      let line = lines[i];
      if (line.length > MAX_LINE_CHARS || !re.test(line)) continue;
      if (redact) {
        line = redact(line);
        if (!re.test(line)) continue;
      }
      if (out.matches.length >= maxResults) {
        out.truncated = true; // a match beyond the limit exists
        break;
      }
      out.matches.push({ path: e.path, line: i + 1, text: line.trim().slice(0, SHOWN_CHARS) });
    }
    if (out.truncated) break;
  }
  cache?.set(key, out, JSON.stringify(out).length, !!redact); // redacted matches may be shared
  return out;
}

/**
 * Reads a file the walk listed, under the same rules as repo.read_file: only a regular file, the last
 * component not followed if it became a symlink after the walk (util/regularFile.ts), and a file with
 * more than one hard link skipped (its other names may be outside the workspace). Undefined when it cannot be read.
 */
function readRegularFile(abs: string): Buffer | undefined {
  let fd: number | undefined;
  try {
    let st: fs.Stats;
    ({ fd, st } = openRegularFileSync(abs)); // a named pipe swapped in since the walk is refused, never waited on
    if (st.nlink > 1) return undefined;
    return fs.readFileSync(fd);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
