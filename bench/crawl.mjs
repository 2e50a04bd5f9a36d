// Crawler benchmark: npm run bench -- crawl   (AMTP_BENCH_TREE=/some/tree to override the Linux tree)
// Every measurement runs with one busy process beside it (a node busy loop the bench starts), and
// every crawl time is paired with an `rg --files` run just before it in the same conditions: the
// ratio is the median of the per-round ratios (7 rounds after a warm-up; AMTP_BENCH_ROUNDS=N), so load from elsewhere
// weighs on both sides alike. The machine's load average is printed before and after.
//  1. a ~50-module published package (markdown-it, fetched with `npm pack` into bench/.work when absent):
//     `node dist/cli.js crawl --json` in a fresh process, as a person runs it: wall and CPU (user+sys);
//     then reach on ramda@0.30.1 (274 modules): the share of its runtime exports (Object.keys of
//     `require('ramda')` in a child process) that the offline generator plans a case for, in the
//     module that defines them or through the entry point that exports them;
//  2. the Linux 6.1 tree: the first full crawl (a new cache each round) in this process, as the
//     issue measured it, and `amtp crawl` in a fresh process; enumeration with and without sizes;
//     the second crawl (warm cache), peak RSS, cache hit rate.
//     Get it with `apt-get install linux-source ripgrep`, then untar
//     /usr/src/linux-source-6.1.tar.xz into bench/.work/linux (or a folder linked from there).
// .gitignore handling is off on both sides for the Linux tree (`--no-ignore-vcs`; the CLI honours a
// .gitignore only inside a git work tree): the Debian linux-source tree ships a root .gitignore of
// `/*` that would hide everything.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { build } from 'esbuild';
import { BUNDLE_ALIAS, BUNDLE_PLUGINS, RUNTIME_EXTERNALS } from '../scripts/bundling.mjs';
import { machine, median, paired, row, runMeasured, spread, startBusy, unpackedPackage } from './measure.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const work = path.join(here, '.work');
mkdirSync(work, { recursive: true });
const tree = process.env.AMTP_BENCH_TREE ?? path.join(work, 'linux', 'linux-source-6.1');
const CLI = path.join(here, '..', 'dist', 'cli.js');
const PACKAGE = 'markdown-it@13.0.2'; // 53 CommonJS modules (lib/, rules, presets), a bin, README; not tuned on
const ROUNDS = Number(process.env.AMTP_BENCH_ROUNDS ?? 7);

const bundle = path.join(work, 'crawler-bench.cjs');
const bundled = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  external: RUNTIME_EXTERNALS,
  plugins: BUNDLE_PLUGINS,
  alias: BUNDLE_ALIAS,
  logLevel: 'warning',
};
await build({
  ...bundled,
  stdin: {
    contents: `export { crawlWorkspace } from './server/src/agents/crawler/staticMap';\nexport { generateCases } from './server/src/agents/generator/offline';\nexport { walkTree } from './server/src/mcp/walk';\nexport { ResponseCache } from './server/src/mcp/cache';\nexport { loadPython } from './server/src/frameworks/pyGrammar';`,
    resolveDir: path.join(here, '..'),
    loader: 'ts',
  },
  outfile: bundle,
});
// The Python parsing threads' script, beside the bundle as dist/pyWorker.js is beside dist/server.js.
await build({
  ...bundled,
  entryPoints: [path.join(here, '..', 'server/src/agents/crawler/pyWorker.ts')],
  outfile: path.join(work, 'pyWorker.js'),
});
if (!existsSync(CLI)) throw new Error(`no ${CLI}: run \`npm run build\` first (npm run bench does)`);

const rgArgs = ['--files', '--no-ignore-vcs', '--no-ignore-parent', '--hidden', '--no-messages'];
const rg = (dir) => () => runMeasured('rg', rgArgs, { cwd: dir });
const cliCrawl = (dir) => () => {
  const r = runMeasured(process.execPath, [CLI, 'crawl', '--json', dir]);
  if (r.status !== 0) throw new Error(`amtp crawl ${dir} exited ${r.status}: ${r.stderr.slice(-1000)}`);
  return r;
};
const ms = (x) => `${x.toFixed(0)} ms`;
const times = (x) => `${x.toFixed(1)}×`;
const header = () => row('measure', 'median', 'min–max', 'ratio to rg', 'goal');

const unpacked = (spec) => unpackedPackage(work, spec);
const pkgRoot = unpacked(PACKAGE);
const REACH_PACKAGE = 'ramda@0.30.1';
const reachRoot = unpacked(REACH_PACKAGE);
if (!existsSync(tree)) {
  console.error(
    `no tree at ${tree}: apt-get install linux-source ripgrep, then untar /usr/src/linux-source-6.1.tar.xz into ${path.join(work, 'linux')}`,
  );
  process.exit(2);
}

console.log(`machine: ${machine()} (before the busy process)`);
const busy = startBusy();
console.log(`beside every measurement: one busy process (node busy loop, pid ${busy.pid}); ${ROUNDS} paired rounds after a warm-up\n`);

// 1. The ~50-file package, each crawl in a fresh process: loading the CLI and the parsers is part of it.
const pkg = await paired(ROUNDS, rg(pkgRoot), cliCrawl(pkgRoot));
const pkgMap = JSON.parse(cliCrawl(pkgRoot)().stdout);
console.log(`package: ${PACKAGE} (${pkgMap.tree.files} files, ${pkgMap.key_files.length} key files): \`node dist/cli.js crawl --json\`\n`);
header();
row('rg --files, wall', ms(median(pkg.ref.map((r) => r.wall))), spread(pkg.ref.map((r) => r.wall)), '1.0×', '');
row(
  'amtp crawl, fresh process, wall',
  ms(median(pkg.sub.map((r) => r.wall))),
  spread(pkg.sub.map((r) => r.wall)),
  times(pkg.ratio),
  '≤ 300 ms',
);
row('  CPU (user+sys, all threads)', ms(median(pkg.sub.map((r) => r.cpu))), spread(pkg.sub.map((r) => r.cpu)), '', '');
row('  peak RSS', `${median(pkg.sub.map((r) => r.rssMb)).toFixed(0)} MB`, '', '', '');
console.log('');

// Reach: ramda's runtime exports, and which of them get a planned case.
const lib = createRequire(import.meta.url)(bundle);
const runtime = JSON.parse(
  execFileSync(process.execPath, ['-e', `process.stdout.write(JSON.stringify(Object.keys(require(${JSON.stringify(reachRoot)}))))`], {
    encoding: 'utf8',
  }),
);
await lib.loadPython(); // as amtp's entry points do: the generator reads Python doctests synchronously
const reachMap = (await lib.crawlWorkspace(reachRoot)).map;
const cases = lib.generateCases(reachMap, 'standard').cases;
// A documented `R.add(2, 3)` is planned through the entry point that exports it (target index.js#add),
// which tests the same function as a case in add.js would.
const planned = new Set(cases.map((c) => c.target.symbol.split('.').pop()));
const reached = runtime.filter((k) => planned.has(k));
console.log(
  `reach: ${REACH_PACKAGE}, ${reachMap.tree.files} files, ${reachMap.key_files.length} key files, ${cases.length} cases (standard)`,
);
console.log(
  `runtime exports planned (own module or entry point): ${reached.length}/${runtime.length} = ${((reached.length / runtime.length) * 100).toFixed(1)} % (goal ≥ 80 %)`,
);
console.log(`not planned: ${runtime.filter((k) => !planned.has(k)).join(', ') || 'none'}\n`);

// 2. The Linux tree.
const linux = await import('./crawlLinux.mjs');
await linux.measureLinux({ lib, tree, rg: rg(tree), cliCrawl: cliCrawl(tree), rgArgs, rounds: ROUNDS, header, ms, times });
busy.stop();
console.log(`\nmachine: ${machine()} (after)`);
