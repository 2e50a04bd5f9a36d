// The files coverage is counted over (docs/verifier.md, "Coverage over the whole package"): every
// product source file the crawler found in the runner's language, not only the files the tests load,
// as `nyc --all`, `c8 --all` and `coverage run --source` count. A file no kept test reaches counts
// with all its statements uncovered (server/src/coverage/v8.ts), and the run says how many there are.
// The crawler's key files are only the files with exports it ranked: the package's other source files
// (an index that only re-exports, a module past the key-file budget) are found on disk, in the folders
// the key files live in (a built copy in another folder, dist/ beside src/, is not counted twice).
import { isProductPath } from '../agents/crawler/targets';
import type { CrawlerOutput } from '../contracts/types';
import type { Framework } from '../core/frameworks';
import type { RunScope } from '../core/scope';
import { unitFile } from '../coverage/units';
import type { CoverageUnits } from '../frameworks/runner';
import { walkTree } from '../mcp/walk';

const JS_SOURCE = /\.(?:[cm]?[jt]sx?)$/;
const PY_SOURCE = /\.py$/;
/** Not product code: typings, minified copies of a bundle, and tests. */
const NOT_PRODUCT =
  /(?:\.d\.[cm]?ts|\.min\.[cm]?js)$|(?:^|\/)(?:__tests__|test|tests|spec)\/|\.(?:test|spec)\.[^/]+$|(?:^|\/)test_[^/]*\.py$/;

/**
 * The product source files a run of `framework` can measure, in path order: the crawler's key files
 * and, with `workspace`, the other source files in their folders; a scoped run (`--only`,
 * `--changed-since`) counts the files in its scope only.
 */
export function productFilesOf(
  crawler: Pick<CrawlerOutput, 'key_files'>,
  framework: Framework,
  scope?: RunScope,
  workspace?: string,
): string[] {
  const language = framework === 'pytest' ? PY_SOURCE : JS_SOURCE;
  const inScope = scope ? new Set(scope.files.map((f) => f.path)) : undefined;
  const product = (p: string) => language.test(p) && !NOT_PRODUCT.test(p) && isProductPath(p) && (!inScope || inScope.has(p));
  const keys = crawler.key_files.map((k) => k.path).filter(product);
  const beside = workspace && !inScope ? besideKeyFiles(workspace, keys).filter(product) : [];
  return [...new Set([...keys, ...beside])].sort();
}

/** The source files in the key files' top folders (the whole subtree), or beside them at the root. */
function besideKeyFiles(workspace: string, keys: string[]): string[] {
  const tops = new Set(keys.map((k) => (k.includes('/') ? k.slice(0, k.indexOf('/')) : '')));
  const out: string[] = [];
  for (const top of tops) {
    const walk = walkTree(workspace, { start: top, sizes: false, ...(top ? {} : { depth: 1 }) });
    out.push(...walk.entries.filter((e) => e.type === 'file').map((e) => e.path));
  }
  return out;
}

/** The files a coverage run measures: the tests' targets and every product file. */
export function measuredFiles(targets: string[], product: string[]): string[] {
  return [...new Set([...targets, ...product])];
}

/** Product files none of whose statements the kept suite covers (never loaded by a kept test). */
export function untestedFiles(product: string[], covered: CoverageUnits): string[] {
  const reached = new Set([...covered].map(unitFile));
  return product.filter((f) => !reached.has(f));
}
