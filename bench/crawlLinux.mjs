// The Linux-tree half of bench/crawl.mjs: enumeration, the first and second full crawl in the bench's
// process (a new cache each round, as the issue measured it) and `amtp crawl` in a fresh process,
// each paired with an `rg --files` run just before it, with the busy process crawl.mjs started.
import { execFileSync } from 'node:child_process';
import { median, paired, row, spread } from './measure.mjs';

/** Wall and CPU (this process, all threads) of one call. */
async function inProcess(fn) {
  const cpu = process.cpuUsage();
  const t = process.hrtime.bigint();
  const value = await fn();
  const wall = Number(process.hrtime.bigint() - t) / 1e6;
  const c = process.cpuUsage(cpu);
  return { wall, cpu: (c.user + c.system) / 1000, value };
}

export async function measureLinux({ lib, tree, rg, cliCrawl, rgArgs, rounds, header, ms, times }) {
  const { crawlWorkspace, walkTree, ResponseCache } = lib;
  const rgFiles = execFileSync('rg', rgArgs, { cwd: tree, maxBuffer: 1 << 28 })
    .toString()
    .split('\n')
    .filter(Boolean).length;
  const names = await paired(rounds, rg, () => inProcess(() => walkTree(tree, { gitignore: 'never', sizes: false })));
  const sized = await paired(rounds, rg, () => inProcess(() => walkTree(tree, { gitignore: 'never' })));
  const opts = (cache) => ({ cache, gitignore: 'never', validateOutput: process.env.AMTP_BENCH_VALIDATE !== '0' });
  // First crawl with a new cache each round (a cold one), the second with that round's cache. Peak RSS
  // is sampled over the first round, as one first and second crawl would use it.
  let cache;
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 10);
  const first = await paired(rounds, rg, () => {
    cache = new ResponseCache({ maxBytes: 256 * 1024 * 1024 });
    return inProcess(() => crawlWorkspace(tree, opts(cache)));
  });
  clearInterval(sampler);
  const second = await paired(rounds, rg, () => inProcess(() => crawlWorkspace(tree, opts(cache))));
  const fresh = await paired(rounds, rg, cliCrawl);
  const last = second.sub.at(-1).value;
  const hitRate = last.cache.hits / Math.max(1, last.cache.hits + last.cache.misses);
  const walked = names.sub.at(-1).value.files;
  console.log(
    `\ntree: ${tree}\nrg files: ${rgFiles}, walker files: ${walked}, crawl files: ${first.sub.at(-1).value.map.tree.files}, key files: ${first.sub.at(-1).value.map.key_files.length}\n`,
  );
  header();
  const line = (what, p, goal = '') => {
    row(what, ms(median(p.sub.map((r) => r.wall))), spread(p.sub.map((r) => r.wall)), times(p.ratio), goal);
    row('  CPU (user+sys, all threads)', ms(median(p.sub.map((r) => r.cpu))), spread(p.sub.map((r) => r.cpu)), times(p.cpuRatio), '');
  };
  const allRg = [names, sized, first, second, fresh].flatMap((p) => p.ref);
  row('rg --files (all pairings)', ms(median(allRg.map((r) => r.wall))), spread(allRg.map((r) => r.wall)), '1.0×', '');
  row('  CPU (user+sys, all threads)', ms(median(allRg.map((r) => r.cpu))), spread(allRg.map((r) => r.cpu)), '1.0×', '');
  line('enumeration, names only (in process)', names);
  line('enumeration with sizes (repo.tree walk, in process)', sized);
  line('full crawl, first (cold cache, in process)', first, '≤ 3×');
  line('full crawl, second (warm cache, in process)', second);
  line('amtp crawl, fresh process', fresh);
  row('peak RSS (bench process, first crawls)', `${(peakRss / 1048576).toFixed(0)} MB`, '', '', '≤ 300 MB');
  row(
    'second-crawl cache hit rate',
    `${(hitRate * 100).toFixed(1)} %`,
    `${last.cache.hits}/${last.cache.hits + last.cache.misses}`,
    '',
    '≥ 95 %',
  );
  row('fresh process peak RSS', `${median(fresh.sub.map((r) => r.rssMb)).toFixed(0)} MB`, '', '', '');
}
