// Crawler benchmark: node bench/crawl.mjs  (AMTP_BENCH_TREE=/some/tree to override the Linux tree)
// Bundles the crawler with esbuild into bench/.work/ (typescript stays external), then measures
// against `rg --files`. .gitignore handling is off on both sides (`--no-ignore-vcs`): the Debian
// linux-source tree ships a root .gitignore of `/*` that would hide everything.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { build } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const work = path.join(here, '.work');
const tree = process.env.AMTP_BENCH_TREE ?? path.join(work, 'linux', 'linux-source-6.1');
if (!existsSync(tree)) {
  console.error(`no tree at ${tree}: apt-get install linux-source ripgrep, then untar /usr/src/linux-source-6.1.tar.xz into ${path.join(work, 'linux')}`);
  process.exit(2);
}
const bundle = path.join(work, 'crawler-bench.cjs');
await build({
  stdin: {
    contents: `export { crawlWorkspace } from './server/src/agents/crawler/staticMap';\nexport { walkTree } from './server/src/mcp/walk';\nexport { ResponseCache } from './server/src/mcp/cache';`,
    resolveDir: path.join(here, '..'),
    loader: 'ts',
  },
  bundle: true, platform: 'node', target: 'node20', format: 'cjs', outfile: bundle, external: ['typescript'], logLevel: 'warning',
});
const { crawlWorkspace, walkTree, ResponseCache } = createRequire(import.meta.url)(bundle);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const time = (fn) => { const t = process.hrtime.bigint(); fn(); return Number(process.hrtime.bigint() - t) / 1e6; };
const timeAsync = async (fn) => { const t = process.hrtime.bigint(); await fn(); return Number(process.hrtime.bigint() - t) / 1e6; };
const runs = 5;

const rgArgs = ['--files', '--no-ignore-vcs', '--no-ignore-parent', '--hidden', '--no-messages'];
const rgFiles = execFileSync('rg', rgArgs, { cwd: tree, maxBuffer: 1 << 28 }).toString().split('\n').filter(Boolean).length;
const rg = [];
for (let i = 0; i < runs + 1; i++) rg.push(time(() => execFileSync('rg', rgArgs, { cwd: tree, maxBuffer: 1 << 28 })));
rg.shift(); // warm-up
const rgMs = median(rg);

let walked = 0;
const names = [], sized = [];
for (let i = 0; i < runs + 1; i++) names.push(time(() => { walked = walkTree(tree, { gitignore: 'never', sizes: false }).files; }));
for (let i = 0; i < runs + 1; i++) sized.push(time(() => walkTree(tree, { gitignore: 'never' })));
names.shift(); sized.shift();

const cache = new ResponseCache({ maxBytes: 256 * 1024 * 1024 });
let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => { peakRss = Math.max(peakRss, process.memoryUsage().rss); }, 10);
let first;
const crawl1 = await timeAsync(async () => { first = await crawlWorkspace(tree, { cache, gitignore: 'never', validateOutput: process.env.AMTP_BENCH_VALIDATE !== '0' }); });
let second;
const crawl2 = await timeAsync(async () => { second = await crawlWorkspace(tree, { cache, gitignore: 'never', validateOutput: process.env.AMTP_BENCH_VALIDATE !== '0' }); });
clearInterval(sampler);
peakRss = Math.max(peakRss, process.memoryUsage().rss);
const hitRate = second.cache.hits / Math.max(1, second.cache.hits + second.cache.misses);

const row = (what, ms, goal, ratio) => console.log(`${what.padEnd(34)} ${ms.padStart(10)} ${ratio.padStart(10)} ${goal.padStart(10)}`);
console.log(`tree: ${tree}\nrg files: ${rgFiles}, walker files: ${walked}, crawl files: ${first.map.tree.files}, key files: ${first.map.key_files.length}\n`);
row('measure', 'value', 'goal', 'ratio');
row('rg --files (median of 5, warm)', `${rgMs.toFixed(0)} ms`, '', '1.0×');
row('enumeration, names only', `${median(names).toFixed(0)} ms`, '≤ 3×', `${(median(names) / rgMs).toFixed(1)}×`);
row('enumeration with sizes (repo.tree)', `${median(sized).toFixed(0)} ms`, '', `${(median(sized) / rgMs).toFixed(1)}×`);
row('full crawl, first (cold cache)', `${crawl1.toFixed(0)} ms`, '≤ 10×', `${(crawl1 / rgMs).toFixed(1)}×`);
row('full crawl, second (warm cache)', `${crawl2.toFixed(0)} ms`, '', `${(crawl2 / rgMs).toFixed(1)}×`);
row('peak RSS', `${(peakRss / 1048576).toFixed(0)} MB`, '≤ 300 MB', '');
row('second-crawl cache hit rate', `${(hitRate * 100).toFixed(1)} %`, '≥ 95 %', `${second.cache.hits}/${second.cache.hits + second.cache.misses}`);
