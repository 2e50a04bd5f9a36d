// End-to-end benchmark: npm run bench -- e2e   (issue 25, docs/benchmarks.md "End to end")
// The whole offline run with verification (`amtp generate --provider offline --yes --json`) on a
// published ~50-module CommonJS package the team did not tune on: node-forge@1.3.1 (49 modules under
// lib/; chosen 2026-11-28 18:41 UTC, before AMTP first ran on it; in no bench/quality subjects file
// and not in test/fixtures), with the mocha its devDependencies name (^5.2.0) installed beside it.
// Two settings, each in a fresh temporary copy, as a person runs them:
//  A. search and mutation off (--no-characterize --no-mutation), B. the defaults (both on).
// Each setting: 1. a first run, 2. a second run with nothing changed, 3. a run after a one-line
// change to one module (a module no other module requires, found by the bench itself).
// For each run: wall, CPU (user+sys of the whole process tree), peak RSS (the largest process),
// runner executions counted independently (the installed mocha's bin entry appends a line to a file
// each time it starts) beside AMTP's own count, the verify stage's wall time and its phases, and
// the ratio of verification to ONE run of the written tests under coverage (c8 around the same
// mocha; the test files the engineer wrote, read from the run's artifact, in a scratch copy; median
// of 3), measured right after, in the same bench. The kept tests' statements and branches over every
// file under lib/, counted by istanbul as `nyc --all` counts them, are printed as the independent
// coverage figure beside AMTP's. The machine's load is printed before and after.
import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { machine, median, row, runMeasured, unpackedPackage } from './measure.mjs';
import { collected, countersDir, instrumentInPlace } from './quality/istanbulInPlace.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.join(here, '..');
const work = path.join(here, '.work');
const CLI = path.join(repo, 'dist', 'cli.js');
const C8 = path.join(repo, 'node_modules', 'c8', 'bin', 'c8.js');
const PACKAGE = process.env.AMTP_BENCH_E2E_PACKAGE ?? 'node-forge@1.3.1';
const SETTINGS = {
  'search and mutation off': ['--no-characterize', '--no-mutation'],
  'search and mutation on (defaults)': [],
};
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

/** The command-line entry the installed mocha's package.json declares. */
function mochaEntry(ws) {
  const pj = JSON.parse(readFileSync(path.join(ws, 'node_modules', 'mocha', 'package.json'), 'utf8'));
  return path.join(ws, 'node_modules', 'mocha', typeof pj.bin === 'string' ? pj.bin : pj.bin.mocha);
}

/** A fresh copy of the package with its node_modules, and the mocha bin entry counting its starts into `counter`. */
function workspace(pkgRoot, modules, counter) {
  const ws = path.join(mkdtempSync(path.join(tmpdir(), 'amtp-e2e-')), 'pkg');
  cpSync(pkgRoot, ws, { recursive: true });
  cpSync(modules, path.join(ws, 'node_modules'), { recursive: true });
  const entry = mochaEntry(ws);
  const [shebang, ...rest] = readFileSync(entry, 'utf8').split('\n');
  const count = `require('fs').appendFileSync(${JSON.stringify(counter)}, process.pid + '\\n');`;
  writeFileSync(entry, [shebang, count, ...rest].join('\n'));
  return ws;
}

/**
 * A module under lib/ that only the package's index files require (node-forge's index.js requires every
 * module): a one-line change there reaches that module and the index files, nothing else.
 */
function leafModule(ws) {
  const files = [];
  const walk = (d) => {
    for (const e of readdirSync(path.join(ws, d), { withFileTypes: true }))
      if (e.isDirectory()) walk(path.join(d, e.name));
      else if (e.name.endsWith('.js')) files.push(path.join(d, e.name));
  };
  walk('lib');
  const index = (f) => /(?:^|\/)index[^/]*\.js$/.test(f);
  const requiredBy = new Map();
  for (const f of files)
    for (const m of readFileSync(path.join(ws, f), 'utf8').matchAll(/require\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g)) {
      const dep = path.join(path.dirname(f), m[1]).replace(/\.js$/, '');
      requiredBy.set(dep, [...(requiredBy.get(dep) ?? []), f]);
    }
  const leaves = files.sort().filter((f) => !index(f) && (requiredBy.get(f.replace(/\.js$/, '')) ?? []).every(index));
  // node-forge's key encapsulation module (exports functions of its own); else the first such module.
  return leaves.find((f) => f === path.join('lib', 'kem.js')) ?? leaves[0];
}

const starts = (counter) => (existsSync(counter) ? readFileSync(counter, 'utf8').split('\n').filter(Boolean).length : 0);

const LOGS = path.join(work, 'e2e-logs');
let runs = 0;

/** One `amtp generate` of `ws`: its whole-process figures, its --json summary and the independent runner count (its log in bench/.work/e2e-logs/run-N.log). */
function generate(ws, counter, flags) {
  writeFileSync(counter, '');
  const r = runMeasured(process.execPath, [CLI, 'generate', ws, '--provider', 'offline', '--yes', '--json', ...flags], {
    timeoutMs: 1800_000,
  });
  let summary;
  try {
    summary = JSON.parse(r.stdout);
  } catch {
    throw new Error(`amtp generate exited ${r.status} without a JSON summary: ${r.stderr.slice(-2000)}`);
  }
  // 7: the run is done and its low-confidence tests wait for a person's review (the confidence gate).
  if (![0, 3, 7].includes(r.status)) throw new Error(`amtp generate exited ${r.status}: ${summary.error ?? r.stderr.slice(-2000)}`);
  // AMTP's own log of the run (its phases' lines), for reading what a figure came from
  mkdirSync(LOGS, { recursive: true });
  writeFileSync(path.join(LOGS, `run-${++runs}.log`), r.stderr);
  return { ...r, ws, summary, runnerStarts: starts(counter) };
}

const keptFiles = (summary, ws) => summary.files.map((f) => f.path).filter((f) => /\.js$/.test(f) && existsSync(path.resolve(ws, f)));

/** The test files the engineer wrote (before verification kept some of their tests), from the run's artifact. */
function writtenFiles(summary, ws) {
  const id = summary.activities.find((a) => a.agent === 'engineer')?.artifactId;
  if (!id) return [];
  const a = JSON.parse(readFileSync(path.join(ws, '.amtp', 'artifacts', summary.runId, `${id}.json`), 'utf8'));
  return a.content.files.filter((f) => /\.js$/.test(f.path));
}

/** One run of `files` under mocha with coverage (c8 --all over lib/), timed 3 times: median wall and CPU. */
function coverageRun(ws, files) {
  const c8 = ['--all', '--include', 'lib/**', '--reporter', 'text-summary', '--temp-directory', path.join(ws, '.c8')];
  const runs = [0, 1, 2].map(() => {
    const r = runMeasured(process.execPath, [C8, ...c8, process.execPath, mochaEntry(ws), ...files], { cwd: ws });
    rmSync(path.join(ws, '.c8'), { recursive: true, force: true });
    return r;
  });
  return { wall: median(runs.map((x) => x.wall)), cpu: median(runs.map((x) => x.cpu)) };
}

/** The product files nyc --all would count: every script under lib/. */
function libFiles(ws) {
  return readdirSync(path.join(ws, 'lib'), { recursive: true })
    .map(String)
    .filter((f) => /\.[cm]?js$/.test(f))
    .map((f) => path.join('lib', f));
}

/**
 * The kept tests' statements and branches as `nyc --all` counts them (istanbul, in place: what
 * bench:quality measures): c8 --all counted 47.1% of node-forge's statements where istanbul counts 31.9%
 * and AMTP 32.3%.
 */
function istanbulRun(ws, files) {
  const aside = path.join(path.dirname(ws), 'istanbul-aside');
  const { empty, restore } = instrumentInPlace(ws, libFiles(ws), aside);
  const out = countersDir(ws);
  try {
    runMeasured(process.execPath, [mochaEntry(ws), ...files], { cwd: ws, env: { ...process.env, BENCH_ISTANBUL_DIR: out } });
    const sum = collected(out, empty).getCoverageSummary().toJSON();
    return { statements: sum.statements.pct, branches: sum.branches.pct };
  } finally {
    restore();
    rmSync(out, { recursive: true, force: true });
  }
}

/** The written tests (not the kept ones) in a scratch copy of the workspace: the reference run of "the written tests". */
function writtenReference(run, pkgRoot, modules) {
  const written = writtenFiles(run.summary, run.ws);
  if (!written.length) return undefined;
  const scratch = workspace(pkgRoot, modules, path.join(tmpdir(), 'amtp-e2e-scratch-count'));
  try {
    for (const f of written) {
      mkdirSync(path.dirname(path.join(scratch, f.path)), { recursive: true });
      writeFileSync(path.join(scratch, f.path), f.content);
    }
    return {
      files: written.length,
      ...coverageRun(
        scratch,
        written.map((f) => f.path),
      ),
    };
  } finally {
    rmSync(path.dirname(scratch), { recursive: true, force: true });
  }
}

const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
const phases = (o) =>
  Object.entries(o ?? {})
    .filter(([, v]) => v >= 0.05)
    .map(([k, v]) => `${k} ${v.toFixed(1)}`)
    .join(', ');

function report(what, run, ref, kept) {
  const v = run.summary.verification ?? {};
  const verify = (run.summary.timings?.verify ?? 0) * 1000;
  console.log(`\n${what}: status ${run.summary.status}, ${keptFiles(run.summary, run.ws).length} test files kept`);
  if (run.summary.reuse) {
    const r = run.summary.reuse;
    row('  incremental', r.unchanged ? `nothing changed (from ${r.from})` : `changed ${r.changed.join(', ')}; reached ${r.reached.length}`);
  }
  row('wall / CPU (whole process tree)', s(run.wall), `CPU ${s(run.cpu)}`);
  row('peak RSS (largest process)', `${run.rssMb.toFixed(0)} MB`);
  row('runner executions (mocha starts, counted)', String(run.runnerStarts), `AMTP: ${v.executions ?? 'n/a'}`);
  row('stages (s)', phases(run.summary.timings) || '–');
  if (v.phases) row('  verify phases (s)', phases(v.phases));
  const c = run.summary.characterization;
  if (c?.search)
    row('  search', `${c.search.executed} runs over ${c.search.modules} module(s)`, `${c.seconds ?? '?'} s of ${c.search.budgetSeconds} s`);
  const m = v.mutation;
  if (m?.status === 'done')
    row(
      '  mutation',
      `${m.files.length} file(s): ${m.files
        .map((f) => f.file)
        .join(', ')
        .slice(0, 200)}`,
      `${m.seconds} s of ${m.budgetSeconds} s`,
    );
  if (ref) {
    row(`one coverage run of the ${ref.files} written test file(s) (c8+mocha)`, s(ref.wall), `CPU ${s(ref.cpu)}`);
    if (verify) row('ratio: verify stage / that coverage run (wall)', `${(verify / ref.wall).toFixed(1)}×`, '', 'goal ≤ 3×');
    row('ratio: whole run / that coverage run (wall / CPU)', `${(run.wall / ref.wall).toFixed(1)}×`, `${(run.cpu / ref.cpu).toFixed(1)}×`);
  }
  if (kept) {
    row('statements of the kept tests (istanbul, as nyc --all, lib/)', `${kept.statements} %`, `AMTP: ${v.coverage?.statements ?? '?'} %`);
    row('branches of the kept tests (istanbul, as nyc --all, lib/)', `${kept.branches} %`, `AMTP: ${v.coverage?.branches ?? '?'} %`);
  }
}

rmSync(LOGS, { recursive: true, force: true });
const pkgRoot = unpackedPackage(work, PACKAGE);
const modules = dependencies(pkgRoot);
console.log(`machine: ${machine()} (before)`);
console.log(`package: ${PACKAGE}, \`node dist/cli.js generate --provider offline --yes --json\`, verification on`);
for (const [name, flags] of Object.entries(SETTINGS)) {
  const counter = path.join(mkdtempSync(path.join(tmpdir(), 'amtp-e2e-count-')), 'mocha-starts');
  const ws = workspace(pkgRoot, modules, counter);
  console.log(`\n=== ${name}: ${flags.join(' ') || '(no flags)'} in ${ws}`);
  try {
    const first = generate(ws, counter, flags);
    report('1. first run', first, writtenReference(first, pkgRoot, modules), istanbulRun(ws, keptFiles(first.summary, ws)));
    report('2. second run, nothing changed', generate(ws, counter, flags));
    const leaf = leafModule(ws);
    appendFileSync(path.join(ws, leaf), '\n// changed by bench/e2e.mjs\n');
    const third = generate(ws, counter, flags);
    report(`3. run after a one-line change to ${leaf}`, third, writtenReference(third, pkgRoot, modules));
  } finally {
    rmSync(path.dirname(ws), { recursive: true, force: true, maxRetries: 5 });
    rmSync(path.dirname(counter), { recursive: true, force: true });
  }
}
console.log(`\nmachine: ${machine()} (after)`);
