// nyc's measure for runners nyc cannot hook (ES modules, ava's worker threads, vite-node): every
// product file is instrumented IN PLACE by istanbul (istanbul-lib-instrument, what nyc and jest's
// babel provider use), the kept tests run under the package's own runner, and each process or worker
// writes its counters when it exits (vitest runs in forked workers for this, as a worker thread is
// terminated without an exit event); the files are restored afterwards, whatever happened.
// Statements and branches are istanbul's, counted on the syntax tree (an arrow function's expression
// body is a statement of its own, run only when the function is called), so the figure is the one
// `nyc --all` gives where nyc can run. c8 --experimental-monocart counted such bodies in getters that
// were never called as run (p-limit@6.2.0: 86.4% against istanbul's 80.0%).
import { createRequire } from 'node:module';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';

const require = createRequire(import.meta.url);
const { createInstrumenter } = require('istanbul-lib-instrument');
const libCoverage = require('istanbul-lib-coverage');

const COVERAGE_VAR = '__amtpBenchCoverage';
const TS = new Set(['.ts', '.mts', '.cts']);

/** Written at the end of each instrumented file: once per process or worker, its counters into BENCH_ISTANBUL_DIR at exit. */
const EXIT_HOOK = `
;(function () {
  var g = globalThis;
  if (g.__amtpBenchHooked || typeof process === 'undefined' || !process.env.BENCH_ISTANBUL_DIR) return;
  g.__amtpBenchHooked = true;
  var fs = process.getBuiltinModule ? process.getBuiltinModule('fs') : require('fs');
  var wt = process.getBuiltinModule ? process.getBuiltinModule('worker_threads') : require('worker_threads');
  var write = function () {
    try {
      var file = process.env.BENCH_ISTANBUL_DIR + '/' + process.pid + '-' + wt.threadId + '.json';
      fs.writeFileSync(file + '.tmp', JSON.stringify(g.${COVERAGE_VAR} || {}));
      fs.renameSync(file + '.tmp', file);
    } catch (e) {}
  };
  process.on('exit', write);
  // tinypool ends a forked worker with SIGTERM, which runs no exit handler
  if (wt.isMainThread && process.listenerCount('SIGTERM') === 0)
    process.once('SIGTERM', function () {
      write();
      process.exit(143);
    });
})();
`;

/**
 * Instruments `product` (paths relative to `dir`) in place; returns the files' empty coverage (for
 * files no test loads, as --all) and a restore function. Files istanbul cannot parse are left as they
 * are and named in `skipped`. The originals wait in `aside` (a folder on the same file system, outside
 * `dir`), moved, not copied, so they come back with their times and inode unchanged.
 */
export function instrumentInPlace(dir, product, aside) {
  putBack(aside);
  mkdirSync(aside, { recursive: true });
  const originals = new Map();
  const empty = {};
  const skipped = [];
  for (const rel of product) {
    const path = join(dir, rel);
    const code = readFileSync(path, 'utf8');
    const instrumenter = createInstrumenter({
      coverageVariable: COVERAGE_VAR,
      esModules: true,
      compact: false,
      parserPlugins: ['jsx', ...(TS.has(extname(rel)) ? ['typescript'] : [])],
    });
    try {
      const out = instrumenter.instrumentSync(code, path);
      const kept = join(aside, String(originals.size));
      renameSync(path, kept);
      originals.set(path, kept);
      writeFileSync(join(aside, 'moved.json'), JSON.stringify([...originals]));
      writeFileSync(path, `${out}\n${EXIT_HOOK}`);
      empty[path] = instrumenter.lastFileCoverage();
    } catch (e) {
      skipped.push(`${rel}: ${String(e.message).split('\n')[0]}`);
    }
  }
  return { empty, skipped, restore: () => putBack(aside) };
}

/** Moves the originals in `aside` back over their instrumented copies (also those a killed bench left there), then removes it. */
function putBack(aside) {
  let moved = [];
  try {
    moved = JSON.parse(readFileSync(join(aside, 'moved.json'), 'utf8'));
  } catch {
    // nothing was moved aside
  }
  // the very files, so the bench's snapshot of the folder (writes.mjs) sees no change
  for (const [path, kept] of moved) renameSync(kept, path);
  rmSync(aside, { recursive: true, force: true });
}

/** The merged counters the processes wrote into `outDir`, over the empty coverage of every instrumented file. */
export function collected(outDir, empty) {
  const map = libCoverage.createCoverageMap({});
  for (const cov of Object.values(empty)) map.addFileCoverage(cov);
  for (const name of readdirSync(outDir)) {
    if (!name.endsWith('.json')) continue;
    try {
      const data = JSON.parse(readFileSync(join(outDir, name), 'utf8'));
      for (const [path, cov] of Object.entries(data)) if (empty[path]) map.merge({ [path]: cov });
    } catch {
      // not JSON: nothing a process wrote (each write is renamed into place whole)
    }
  }
  return map;
}

/** A fresh folder for the processes' counters. */
export function countersDir(root) {
  const dir = join(root, '.bench-istanbul');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}
