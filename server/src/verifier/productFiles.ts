// The files coverage is counted over (docs/verifier.md, "Coverage over the whole package"): every
// product source file the crawler found in the runner's language, not only the files the tests load,
// as `nyc --all`, `c8 --all` and `coverage run --source` count. A file no kept test reaches counts
// with all its statements uncovered (server/src/coverage/v8.ts), and the run says how many there are.
import type { CrawlerOutput } from '../contracts/types';
import type { Framework } from '../core/frameworks';
import type { RunScope } from '../core/scope';
import type { CoverageUnits } from '../frameworks/runner';

const JS_SOURCE = /\.(?:[cm]?[jt]sx?)$/;
const PY_SOURCE = /\.py$/;
/** Not product code: typings, minified copies of a bundle, and tests. */
const NOT_PRODUCT =
  /(?:\.d\.[cm]?ts|\.min\.[cm]?js)$|(?:^|\/)(?:__tests__|test|tests|spec)\/|\.(?:test|spec)\.[^/]+$|(?:^|\/)test_[^/]*\.py$/;

/**
 * The crawler's product source files a run of `framework` can measure, in path order; a scoped run
 * (`--only`, `--changed-since`) counts the files in its scope only.
 */
export function productFilesOf(crawler: Pick<CrawlerOutput, 'key_files'>, framework: Framework, scope?: RunScope): string[] {
  const language = framework === 'pytest' ? PY_SOURCE : JS_SOURCE;
  const inScope = scope ? new Set(scope.files.map((f) => f.path)) : undefined;
  const files = crawler.key_files
    .map((k) => k.path)
    .filter((p) => language.test(p) && !NOT_PRODUCT.test(p) && (!inScope || inScope.has(p)));
  return [...new Set(files)].sort();
}

/** The files a coverage run measures: the tests' targets and every product file. */
export function measuredFiles(targets: string[], product: string[]): string[] {
  return [...new Set([...targets, ...product])];
}

/** Product files none of whose statements the kept suite covers (never loaded by a kept test). */
export function untestedFiles(product: string[], covered: CoverageUnits): string[] {
  const reached = new Set([...covered].map((u) => u.slice(0, u.search(/:(?:s@|b@|f@|l-?\d|a-?\d)/))));
  return product.filter((f) => !reached.has(f));
}
