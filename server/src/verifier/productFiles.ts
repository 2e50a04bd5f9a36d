// The files coverage is counted over (docs/verifier.md, "Coverage over the whole package"): every
// product source file of the package in the runner's language, not only the files the tests load, as
// `nyc --all`, `c8 --all` and `coverage run --source` count: the crawler's key files and every other
// source file the walk finds (an index that only re-exports, a module past the key-file budget), by the
// one rule of what is product code (server/src/agents/crawler/targets.ts). A file no kept test reaches
// counts with all its statements uncovered (server/src/coverage/v8.ts), and the run says how many there
// are. A module the package ships twice (dist/ beside src/) counts once: server/src/coverage/copies.ts.
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
  const others = workspace && !inScope ? sourceFiles(workspace).filter(product) : [];
  return [...new Set([...keys, ...others])].sort();
}

/** Every file of the workspace the walk sees (not node_modules, nor a build folder the package does not ship, nor what .gitignore ignores). */
function sourceFiles(workspace: string): string[] {
  return walkTree(workspace, { sizes: false })
    .entries.filter((e) => e.type === 'file')
    .map((e) => e.path);
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

/** The units of every file but `files` (the copies a package ships twice, left out of the count). */
export function withoutFiles(units: CoverageUnits, files: readonly string[]): CoverageUnits {
  if (!files.length) return units;
  const out: CoverageUnits = new Set();
  for (const u of units) if (!files.includes(u.slice(0, u.search(/:(?:s@|b@|f@|l-?\d|a-?\d)/)))) out.add(u);
  return out;
}
