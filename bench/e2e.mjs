// End-to-end benchmark: npm run bench -- e2e
// The whole offline run with verification (`amtp generate --provider offline --yes --json`) on a
// published 53-module CommonJS package the team did not tune on (markdown-it@13.0.2, mocha, its
// runtime dependencies and the mocha its devDependencies name installed beside it), in a fresh
// temporary copy, as a person runs it:
//  1. a first run, then 2. a run after a one-line change to one module (lib/common/utils.js).
// For each: wall time, CPU time (user+sys of the whole process tree), peak RSS (the largest single
// process), runner executions counted independently (a line appended to a file by the installed
// mocha's own bin entry each time it starts) beside AMTP's own count, and the ratios of the run's wall
// and CPU time to one run of the kept test files under coverage (c8 around the same mocha; median of
// 3), measured in the same bench right after it. The reference run's statement coverage (c8, --all over lib/) is printed
// too: an independent figure of what the kept tests reach.
// The machine's load average is printed before and after: the figures are those of this machine now.
import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { machine, median, row, runMeasured, unpackedPackage } from './measure.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.join(here, '..');
const work = path.join(here, '.work');
const CLI = path.join(repo, 'dist', 'cli.js');
const C8 = path.join(repo, 'node_modules', 'c8', 'bin', 'c8.js');
const PACKAGE = 'markdown-it@13.0.2';
const CHANGED = 'lib/common/utils.js';
if (!existsSync(CLI)) throw new Error(`no ${CLI}: run \`npm run build\` first (npm run bench does)`);

/** node_modules for the package: its runtime dependencies and its devDependencies' mocha, installed once. */
function dependencies(pkgRoot) {
  const dir = path.join(work, 'e2e-deps', PACKAGE.replace(/[^\w.-]/g, '_'));
  if (!existsSync(path.join(dir, 'node_modules', 'mocha'))) {
    const pj = JSON.parse(readFileSync(path.join(pkgRoot, 'package.json'), 'utf8'));
    mkdirSync(dir, { recursive: true });
    const deps = { ...pj.dependencies, mocha: pj.devDependencies.mocha };
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'e2e-deps', private: true, dependencies: deps }, null, 2));
    execFileSync('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--silent'], { cwd: dir, stdio: 'inherit' });
  }
  return path.join(dir, 'node_modules');
}

/** The command-line entry the installed mocha's package.json declares (mocha 9: bin/mocha, no extension). */
function mochaEntry(ws) {
  const pj = JSON.parse(readFileSync(path.join(ws, 'node_modules', 'mocha', 'package.json'), 'utf8'));
  return path.join(ws, 'node_modules', 'mocha', typeof pj.bin === 'string' ? pj.bin : pj.bin.mocha);
}

/** A fresh copy of the package with its node_modules, and the mocha bin entry counting its starts into `counter`. */
function workspace(pkgRoot, modules, counter) {
  const ws = path.join(mkdtempSync(path.join(tmpdir(), 'amtp-e2e-')), 'markdown-it');
  cpSync(pkgRoot, ws, { recursive: true });
  cpSync(modules, path.join(ws, 'node_modules'), { recursive: true });
  const entry = mochaEntry(ws);
  const [shebang, ...rest] = readFileSync(entry, 'utf8').split('\n');
  const count = `require('fs').appendFileSync(${JSON.stringify(counter)}, process.pid + '\\n');`;
  writeFileSync(entry, [shebang, count, ...rest].join('\n'));
  return ws;
}

const starts = (counter) => (existsSync(counter) ? readFileSync(counter, 'utf8').split('\n').filter(Boolean).length : 0);

/** One `amtp generate` of `ws`: its whole-process figures, its --json summary and the independent runner count. */
function generate(ws, counter) {
  writeFileSync(counter, '');
  const r = runMeasured(process.execPath, [CLI, 'generate', ws, '--provider', 'offline', '--yes', '--json'], { timeoutMs: 1800_000 });
  let summary;
  try {
    summary = JSON.parse(r.stdout);
  } catch {
    throw new Error(`amtp generate exited ${r.status} without a JSON summary: ${r.stderr.slice(-2000)}`);
  }
  if (r.status !== 0 && r.status !== 3) throw new Error(`amtp generate exited ${r.status}: ${summary.error ?? r.stderr.slice(-2000)}`);
  return { ...r, ws, summary, runnerStarts: starts(counter) };
}

/** The kept test files of a run (workspace-relative), from its summary. */
const keptFiles = (summary, ws) => summary.files.map((f) => f.path).filter((f) => /\.js$/.test(f) && existsSync(path.resolve(ws, f)));

/**
 * One run of the kept test files under mocha with coverage (c8), timed 3 times (median wall and CPU:
 * on a loaded machine one short run swings several-fold), and c8's statement figure over lib/.
 */
function coverageRun(ws, files) {
  const c8 = [
    '--all',
    '--include',
    'lib/**',
    '--include',
    'index.js',
    '--reporter',
    'text-summary',
    '--temp-directory',
    path.join(ws, '.c8'),
  ];
  const runs = [0, 1, 2].map(() => {
    const r = runMeasured(process.execPath, [C8, ...c8, process.execPath, mochaEntry(ws), ...files], { cwd: ws });
    rmSync(path.join(ws, '.c8'), { recursive: true, force: true });
    return r;
  });
  const r = runs[0];
  const statements = /Statements\s*:\s*([\d.]+)%/.exec(r.stdout)?.[1];
  if (r.status !== 0 || !statements) console.log(`the coverage run exited ${r.status}:\n${r.stdout.slice(-1500)}${r.stderr.slice(-1500)}`);
  return { wall: median(runs.map((x) => x.wall)), cpu: median(runs.map((x) => x.cpu)), statements };
}

function report(what, run, ref) {
  const v = run.summary.verification ?? {};
  const cov = v.coverage ?? {};
  console.log(`\n${what}: status ${run.summary.status}, ${keptFiles(run.summary, run.ws).length} test files kept`);
  row('wall', `${(run.wall / 1000).toFixed(1)} s`);
  row('CPU (user+sys, whole process tree)', `${(run.cpu / 1000).toFixed(1)} s`);
  row('peak RSS (largest process)', `${run.rssMb.toFixed(0)} MB`);
  row('runner executions (mocha starts, counted)', String(run.runnerStarts));
  row("  AMTP's own count (verification.executions)", String(v.executions ?? 'n/a'));
  row(
    'one coverage run of the kept tests (c8 + mocha), median of 3',
    `${(ref.wall / 1000).toFixed(2)} s`,
    `CPU ${(ref.cpu / 1000).toFixed(2)} s`,
  );
  row('ratio: whole run / coverage run, wall', `${(run.wall / ref.wall).toFixed(0)}×`, '', 'goal ≤ 3× (verification)');
  row('ratio: whole run / coverage run, CPU', `${(run.cpu / ref.cpu).toFixed(0)}×`);
  row('statements (c8 --all, lib/ + index.js)', `${ref.statements ?? '?'} %`);
  if (cov.statements !== undefined) row("  AMTP's own statements figure", `${JSON.stringify(cov.statements)}`);
}

const pkgRoot = unpackedPackage(work, PACKAGE);
const modules = dependencies(pkgRoot);
const counter = path.join(mkdtempSync(path.join(tmpdir(), 'amtp-e2e-count-')), 'mocha-starts');
const ws = workspace(pkgRoot, modules, counter);
console.log(`machine: ${machine()} (before)`);
console.log(`package: ${PACKAGE} in ${ws}: \`node dist/cli.js generate --provider offline --yes --json\`, verification on`);
try {
  const first = generate(ws, counter);
  const firstRef = coverageRun(ws, keptFiles(first.summary, ws));
  report('first run', first, firstRef);
  // A one-line change to one module: a comment line in lib/common/utils.js, so its content hash moves.
  appendFileSync(path.join(ws, CHANGED), '\n// changed by bench/e2e.mjs\n');
  const second = generate(ws, counter);
  const secondRef = coverageRun(ws, keptFiles(second.summary, ws));
  report(`run after a one-line change to ${CHANGED}`, second, secondRef);
} finally {
  rmSync(path.dirname(ws), { recursive: true, force: true, maxRetries: 5 });
  rmSync(path.dirname(counter), { recursive: true, force: true });
  console.log(`\nmachine: ${machine()} (after)`);
}
