// The one list of paths that are not product code: build and tool configs, scripts, fixtures,
// benchmarks, fuzzers, type declarations, tests and their helpers, examples and docs. The crawler
// never makes them key files unless an entry point reaches them (then they are product code,
// whatever their name says: server/src/agents/crawler/reach.ts decides that).

/** [why, pattern] pairs, tested against a root-relative POSIX path. Order only decides the reason shown. */
const NOT_PRODUCT: [string, RegExp][] = [
  ['type declarations', /\.d\.[cm]?ts$/],
  [
    'a build or tool config',
    /(^|\/)[^/]*\.config\.[^/]+$|(^|\/)\.[^/]*rc\.[cm]?[jt]s$|(^|\/)(rollup|webpack|vite|vitest|jest|babel|eslint|prettier|karma|gulp|grunt|tsup|esbuild|commitlint|lint-staged|stylelint|postcss|tailwind|svelte|astro|nuxt|next|playwright|cypress|metro)\.config\b[^/]*$|(^|\/)(Gruntfile|gulpfile|Jakefile)\.[^/]+$|(^|\/)\.?eslintrc[^/]*$|(^|\/)babel\.config[^/]*$/i,
  ],
  ['a Python build or test setup file', /(^|\/)(setup|conftest|noxfile|fabfile)\.py$/],
  [
    'a test or test helper',
    /(^|\/)(tests?|__tests__|__mocks__|specs?|e2e|test[-_]?utils|test[-_]?helpers)\/|\.(test|spec|e2e)\.[cm]?[jt]sx?$|(^|\/)(tests?|specs?)\.[cm]?[jt]sx?$|(^|\/)test_[^/]*\.py$|(^|\/)[^/]*_test\.py$/,
  ],
  ['a fixture', /(^|\/)(__)?fixtures?(__)?\//],
  ['a benchmark', /(^|\/)bench(es|marks?)?\/|\.bench\.[^/]+$|(^|\/)bench(mark[^/]*)?\.[cm]?[jt]s$/],
  ['a fuzzer', /(^|\/)fuzz(ers?|ing)?\/|(^|\/)fuzz[^/]*\.(py|[cm]?[jt]s)$/],
  ['a script or tool', /(^|\/)(scripts?|tools?|\.github|\.husky|ci)\//],
  ['an example or documentation', /(^|\/)(examples?|samples?|demos?|docs?|documentation|website)\/|(^|\/)(examples?|demo)\.[cm]?[jt]sx?$/i],
  ['vendored or generated code', /(^|\/)(vendor|third_party|node_modules|coverage|\.nyc_output)\/|[.-]min\.[cm]?js$/],
];

/** Why `path` is not product code, or undefined when it may be. */
export function nonProductReason(path: string): string | undefined {
  for (const [why, re] of NOT_PRODUCT) if (re.test(path)) return why;
  return undefined;
}

export const isProductPath = (path: string): boolean => nonProductReason(path) === undefined;
