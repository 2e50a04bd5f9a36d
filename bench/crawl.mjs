// Crawler benchmark: node bench/crawl.mjs  (AMTP_BENCH_TREE=/some/tree to override the Linux tree)
// Bundles the crawler with esbuild into bench/.work/ as the real bundles are built (same externals,
// validators precompiled), then measures two things against `rg --files` in the same run:
//  1. a ~50-file published package (semver, fetched with `npm pack` into bench/.work when absent):
//     the wall time of a fresh `node` process that loads the bundle and crawls it, median of 5;
//     then reach on ramda@0.30.1 (274 modules): the share of its runtime exports (Object.keys of
//     `require('ramda')` in a child process) that the offline generator plans a case for, in the
//     module that defines them or through the entry point that exports them;
//  2. the Linux 6.1 tree: enumeration, first and second full crawl (medians of 5 rounds, each with
//     a new cache and its own rg run before it; the ratio is the median of the per-round ratios),
//     peak RSS, cache hit rate.
//     Get it with `apt-get install linux-source ripgrep`, then untar
//     /usr/src/linux-source-6.1.tar.xz into bench/.work/linux.
// .gitignore handling is off on both sides for the Linux tree (`--no-ignore-vcs`): the Debian
// linux-source tree ships a root .gitignore of `/*` that would hide everything.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { build } from 'esbuild';
import { BUNDLE_ALIAS, BUNDLE_PLUGINS, RUNTIME_EXTERNALS } from '../scripts/bundling.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const work = path.join(here, '.work');
mkdirSync(work, { recursive: true });
const tree = process.env.AMTP_BENCH_TREE ?? path.join(work, 'linux', 'linux-source-6.1');
const PACKAGE = 'semver@7.8.6'; // 54 files: lib code, classes, ranges, a bin, README

const bundle = path.join(work, 'crawler-bench.cjs');
await build({
  stdin: {
    contents: `export { crawlWorkspace } from './server/src/agents/crawler/staticMap';\nexport { generateCases } from './server/src/agents/generator/offline';\nexport { walkTree } from './server/src/mcp/walk';\nexport { ResponseCache } from './server/src/mcp/cache';`,
    resolveDir: path.join(here, '..'),
    loader: 'ts',
  },
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  outfile: bundle,
  external: RUNTIME_EXTERNALS,
  plugins: BUNDLE_PLUGINS,
  alias: BUNDLE_ALIAS,
  logLevel: 'warning',
});
// The Python parsing threads' script, beside the bundle as dist/pyWorker.js is beside dist/server.js.
await build({
  entryPoints: [path.join(here, '..', 'server/src/agents/crawler/pyWorker.ts')],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  outfile: path.join(work, 'pyWorker.js'),
  external: RUNTIME_EXTERNALS,
  plugins: BUNDLE_PLUGINS,
  alias: BUNDLE_ALIAS,
  logLevel: 'warning',
});

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const time = (fn) => {
  const t = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
};
const timeAsync = async (fn) => {
  const t = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
};
const runs = 5;
const row = (what, ms, goal, ratio) => console.log(`${what.padEnd(46)} ${ms.padStart(10)} ${ratio.padStart(10)} ${goal.padStart(10)}`);
const rgArgs = ['--files', '--no-ignore-vcs', '--no-ignore-parent', '--hidden', '--no-messages'];
/** Median wall time of `rg --files` over `dir` (one warm-up run first). */
const rgMedian = (dir) => {
  const ts = [];
  for (let i = 0; i < runs + 1; i++) ts.push(time(() => execFileSync('rg', rgArgs, { cwd: dir, maxBuffer: 1 << 28 })));
  ts.shift();
  return median(ts);
};

// 1. The ~50-file package, each crawl in a fresh process: loading the bundle and the parsers is part of it.
/** The unpacked tarball of `spec` under bench/.work/pkg (fetched once with `npm pack`). */
const unpacked = (spec) => {
  const pkgDir = path.join(work, 'pkg', spec.replace(/[^\w.-]/g, '_'));
  if (!existsSync(path.join(pkgDir, 'package'))) {
    mkdirSync(pkgDir, { recursive: true });
    const tgz = execFileSync('npm', ['pack', spec, '--silent', '--pack-destination', pkgDir], { cwd: pkgDir, encoding: 'utf8' })
      .trim()
      .split('\n')
      .pop();
    execFileSync('tar', ['-xzf', path.join(pkgDir, tgz), '-C', pkgDir]);
  }
  return path.join(pkgDir, 'package');
};
const pkgRoot = unpacked(PACKAGE);
const once = path.join(work, 'crawl-once.cjs');
writeFileSync(
  once,
  `const t = process.hrtime.bigint();
require(${JSON.stringify(bundle)}).crawlWorkspace(process.argv[2]).then((r) => {
  process.stdout.write(JSON.stringify({ ms: Number(process.hrtime.bigint() - t) / 1e6, files: r.map.tree.files, keyFiles: r.map.key_files.length }));
});
`,
);
const walls = [];
const inside = [];
let pkgFacts;
for (let i = 0; i < runs + 1; i++) {
  let out;
  const ms = time(() => {
    out = spawnSync(process.execPath, [once, pkgRoot], { encoding: 'utf8' });
  });
  if (out.status !== 0) throw new Error(`crawl of ${PACKAGE} failed: ${out.stderr}`);
  pkgFacts = JSON.parse(out.stdout);
  walls.push(ms);
  inside.push(pkgFacts.ms);
}
walls.shift();
inside.shift(); // warm-up: the page cache, not the crawler
const pkgRg = rgMedian(pkgRoot);
console.log(`package: ${PACKAGE} (${pkgFacts.files} files, ${pkgFacts.keyFiles} key files), ${runs} fresh processes\n`);
row('measure', 'value', 'goal', 'ratio');
row('rg --files (median, warm)', `${pkgRg.toFixed(0)} ms`, '', '1.0×');
row('crawl, fresh node process (median)', `${median(walls).toFixed(0)} ms`, '≤ 300 ms', `${(median(walls) / pkgRg).toFixed(1)}×`);
row('  of which inside crawlWorkspace', `${median(inside).toFixed(0)} ms`, '', '');
console.log('');

// Reach: ramda's runtime exports, and which of them get a planned case.
const REACH_PACKAGE = 'ramda@0.30.1';
const reachRoot = unpacked(REACH_PACKAGE);
const lib = createRequire(import.meta.url)(bundle);
const runtime = JSON.parse(
  execFileSync(process.execPath, ['-e', `process.stdout.write(JSON.stringify(Object.keys(require(${JSON.stringify(reachRoot)}))))`], {
    encoding: 'utf8',
  }),
);
let reachMap;
const reachMs = await timeAsync(async () => {
  reachMap = (await lib.crawlWorkspace(reachRoot)).map;
});
const cases = lib.generateCases(reachMap, 'standard').cases;
// A documented `R.add(2, 3)` is planned through the entry point that exports it (target index.js#add),
// which tests the same function as a case in add.js would.
const planned = new Set(cases.map((c) => c.target.symbol.split('.').pop()));
const reached = runtime.filter((k) => planned.has(k));
console.log(
  `reach: ${REACH_PACKAGE}, ${reachMap.tree.files} files, ${reachMap.key_files.length} key files, ${cases.length} cases (standard)\n`,
);
row('measure', 'value', 'goal', 'ratio');
row(
  'runtime exports planned (own module or entry point)',
  `${reached.length}/${runtime.length}`,
  '≥ 80 %',
  `${((reached.length / runtime.length) * 100).toFixed(1)} %`,
);
row('crawl (in this process)', `${reachMs.toFixed(0)} ms`, '', '');
console.log(`not planned: ${runtime.filter((k) => !planned.has(k)).join(', ') || 'none'}\n`);

// 2. The Linux tree.
if (!existsSync(tree)) {
  console.error(
    `no tree at ${tree}: apt-get install linux-source ripgrep, then untar /usr/src/linux-source-6.1.tar.xz into ${path.join(work, 'linux')}`,
  );
  process.exit(2);
}
const { crawlWorkspace, walkTree, ResponseCache } = lib;
const rgFiles = execFileSync('rg', rgArgs, { cwd: tree, maxBuffer: 1 << 28 })
  .toString()
  .split('\n')
  .filter(Boolean).length;
const rgMs = rgMedian(tree);

let walked = 0;
const names = [],
  sized = [];
for (let i = 0; i < runs + 1; i++)
  names.push(
    time(() => {
      walked = walkTree(tree, { gitignore: 'never', sizes: false }).files;
    }),
  );
for (let i = 0; i < runs + 1; i++) sized.push(time(() => walkTree(tree, { gitignore: 'never' })));
names.shift();
sized.shift();

// First and second crawl, each round with a new cache (so every first crawl is a cold one), rounds
// interleaved with rg: load from other work on the machine then weighs on both sides alike. Peak RSS
// is sampled over the first round, as one first and second crawl would use it.
const crawlOpts = (cache) => ({ cache, gitignore: 'never', validateOutput: process.env.AMTP_BENCH_VALIDATE !== '0' });
const crawl1s = [],
  crawl2s = [],
  rgPaired = [];
let first, second, peakRss;
for (let round = 0; round < runs; round++) {
  rgPaired.push(time(() => execFileSync('rg', rgArgs, { cwd: tree, maxBuffer: 1 << 28 })));
  const cache = new ResponseCache({ maxBytes: 256 * 1024 * 1024 });
  peakRss ??= process.memoryUsage().rss;
  const sampler = round === 0 ? setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 10) : undefined;
  crawl1s.push(await timeAsync(async () => (first = await crawlWorkspace(tree, crawlOpts(cache)))));
  crawl2s.push(await timeAsync(async () => (second = await crawlWorkspace(tree, crawlOpts(cache)))));
  if (sampler) {
    clearInterval(sampler);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }
}
/** Median over the rounds of each crawl's time over the rg run just before it. */
const pairedRatio = (xs) => median(xs.map((x, i) => x / rgPaired[i]));
const crawl1 = median(crawl1s);
const crawl2 = median(crawl2s);
const hitRate = second.cache.hits / Math.max(1, second.cache.hits + second.cache.misses);

console.log(
  `tree: ${tree}\nrg files: ${rgFiles}, walker files: ${walked}, crawl files: ${first.map.tree.files}, key files: ${first.map.key_files.length}\n`,
);
row('measure', 'value', 'goal', 'ratio');
row('rg --files (median of 5, warm)', `${rgMs.toFixed(0)} ms`, '', '1.0×');
row('enumeration, names only', `${median(names).toFixed(0)} ms`, '', `${(median(names) / rgMs).toFixed(1)}×`);
row('enumeration with sizes (repo.tree)', `${median(sized).toFixed(0)} ms`, '', `${(median(sized) / rgMs).toFixed(1)}×`);
row(`full crawl, first (cold cache, median of ${runs})`, `${crawl1.toFixed(0)} ms`, '≤ 3×', `${pairedRatio(crawl1s).toFixed(1)}×`);
row(`full crawl, second (warm cache, median of ${runs})`, `${crawl2.toFixed(0)} ms`, '', `${pairedRatio(crawl2s).toFixed(1)}×`);
row('  rg --files paired with each round (median)', `${median(rgPaired).toFixed(0)} ms`, '', '1.0×');
row('peak RSS (whole bench process)', `${(peakRss / 1048576).toFixed(0)} MB`, '≤ 300 MB', '');
row(
  'second-crawl cache hit rate',
  `${(hitRate * 100).toFixed(1)} %`,
  '≥ 95 %',
  `${second.cache.hits}/${second.cache.hits + second.cache.misses}`,
);
