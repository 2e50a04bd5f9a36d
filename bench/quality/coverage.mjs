// Statements and branches of ONLY the kept tests, under the package's own runner, over ALL its
// product files (product.mjs), measured by tools that are not AMTP's:
// - mocha, ava, node-tap, node:test, vitest: istanbul, as nyc --all counts, with every product file
//   instrumented in place for one run of the kept files (istanbulInPlace.mjs): built files count as
//   themselves (their maps are not followed), whatever loads them (Node, vite-node, a worker);
// - jest: jest's own --coverage with collectCoverageFrom = the product files (istanbul, as nyc);
// - pytest: coverage.py `run --branch --source` (Debian's python3-coverage), then `coverage json`.
// Each yields per-file { statements, branches } as { total, covered }.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { collected, countersDir, instrumentInPlace } from './istanbulInPlace.mjs';
import { pythonCoverage, versionIn } from './tools.mjs';

const TIMEOUT_MS = 10 * 60_000;

/** tap 18 turns its coverage off with --disable-coverage; 15–17 (ini@4.1.3's ^16) with --no-coverage. */
function tapNoCoverage(bin) {
  const major = Number((versionIn(join(bin, '..'), 'tap') ?? '18').split('.')[0]);
  return major < 18 ? '--no-coverage' : '--disable-coverage';
}

/** The command that runs the kept files under the package's runner (`bin`: root/node_modules/.bin). */
export function runnerCommand(framework, bin, files, args = []) {
  if (framework === 'mocha') return [join(bin, 'mocha'), ...args, ...files];
  if (framework === 'ava') return [join(bin, 'ava'), ...args, ...files];
  if (framework === 'node-tap') return [join(bin, 'tap'), tapNoCoverage(bin), '--reporter=tap', ...args, ...files];
  if (framework === 'node-test') return [process.execPath, ...args, '--test', ...files];
  if (framework === 'jest') return [join(bin, 'jest'), '--ci', ...args, '--runTestsByPath', ...files];
  if (framework === 'vitest') return [join(bin, 'vitest'), 'run', ...args, ...files];
  throw new Error(`no runner command for ${framework}`);
}

function run(cmd, cwd, env) {
  const r = spawnSync(cmd[0], cmd.slice(1), {
    cwd,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 256 << 20,
    timeout: TIMEOUT_MS,
  });
  return { exit: r.status, output: `${r.stdout ?? ''}${r.stderr ?? ''}`, timedOut: r.error?.code === 'ETIMEDOUT' };
}

/** istanbul json-summary (absolute paths) → per relative product file. */
function fromSummary(file, dir, product) {
  const out = {};
  if (!existsSync(file)) return out;
  const summary = JSON.parse(readFileSync(file, 'utf8'));
  for (const [abs, s] of Object.entries(summary)) {
    const rel = isAbsolute(abs) ? relative(dir, abs) : abs;
    if (product.includes(rel)) out[rel] = { statements: pick(s.statements), branches: pick(s.branches) };
  }
  return out;
}
const pick = (c) => ({ total: c.total, covered: c.covered });

/** jest's own --coverage (babel provider: istanbul, as nyc) with collectCoverageFrom = the product files. */
function jestCoverage({ dir, root, files, product, env, args }) {
  const out = join(root, '.bench-coverage');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const runner = runnerCommand('jest', join(root, 'node_modules/.bin'), files, args);
  const cmd = [
    ...runner.slice(0, -files.length - 1),
    '--coverage',
    '--coverageProvider=babel',
    '--coverageReporters=json-summary',
    `--coverageDirectory=${out}`,
    ...product.map((f) => `--collectCoverageFrom=${f}`),
    '--runTestsByPath',
    ...files,
  ];
  return { ...run(cmd, dir, env), perFile: fromSummary(join(out, 'coverage-summary.json'), dir, product), tool: 'jest --coverage (babel)' };
}

function pyCoverage({ dir, root, files, product, env }) {
  const data = join(root, '.bench-coverage.db');
  const json = join(root, '.bench-coverage.json');
  rmSync(data, { force: true });
  const pyEnv = { ...env, PYTHONPATH: [pythonCoverage(), dir, env.PYTHONPATH].filter(Boolean).join(':'), PYTHONDONTWRITEBYTECODE: '1' };
  const r = run(
    [
      'python3',
      '-m',
      'coverage',
      'run',
      '--branch',
      `--source=${dir}`,
      `--data-file=${data}`,
      '-m',
      'pytest',
      '-q',
      '-p',
      'no:cacheprovider',
      ...files,
    ],
    dir,
    pyEnv,
  );
  run(['python3', '-m', 'coverage', 'json', `--data-file=${data}`, '-o', json, '--ignore-errors'], dir, pyEnv);
  const perFile = {};
  if (existsSync(json)) {
    for (const [path, f] of Object.entries(JSON.parse(readFileSync(json, 'utf8')).files)) {
      const rel = path.startsWith('/') ? relative(dir, path) : path;
      const s = f.summary;
      if (product.includes(rel))
        perFile[rel] = {
          statements: { total: s.num_statements, covered: s.covered_lines },
          branches: { total: s.num_branches ?? 0, covered: s.covered_branches ?? 0 },
        };
    }
  }
  return { ...r, perFile };
}

/** Runner options that let each test process write its counters: vitest's workers in child processes, which end on a signal (istanbulInPlace.mjs). */
function counterArgs(framework, root) {
  if (framework !== 'vitest') return [];
  const major = Number(JSON.parse(readFileSync(join(root, 'node_modules/vitest/package.json'), 'utf8')).version.split('.')[0]);
  return major >= 1 ? ['--pool=forks'] : ['--no-threads'];
}

/** istanbul's counts over the product files, instrumented in place (istanbulInPlace.mjs) for one run of the kept files. */
function inPlaceCoverage({ framework, dir, root, files, product, env, args }) {
  const out = countersDir(root);
  const { empty, skipped, restore } = instrumentInPlace(dir, product, join(root, '.bench-originals'));
  let r;
  try {
    r = run(runnerCommand(framework, join(root, 'node_modules/.bin'), files, [...args, ...counterArgs(framework, root)]), dir, {
      ...env,
      BENCH_ISTANBUL_DIR: out,
    });
  } finally {
    restore();
  }
  const perFile = {};
  const map = collected(out, empty);
  for (const path of map.files()) {
    const s = map.fileCoverageFor(path).toSummary();
    perFile[relative(dir, path)] = { statements: pick(s.statements), branches: pick(s.branches) };
  }
  return { ...r, perFile, tool: 'istanbul (in place)', ...(skipped.length ? { skipped } : {}) };
}

/** Per-file coverage of the kept tests; `env`/`args` are the run plan's (verifier/runPlan.ts). */
export function keptCoverage(opts) {
  if (opts.framework === 'pytest') return pyCoverage(opts);
  // jest's own --coverage is istanbul already (babel provider), with jest's module registry in charge of loading
  return opts.framework === 'jest' ? jestCoverage(opts) : inPlaceCoverage(opts);
}

/** Totals over the product files (a file the tool did not report counts as unmeasured, not 0 of 0). */
export function totals(perFile, product) {
  const t = { statements: { total: 0, covered: 0 }, branches: { total: 0, covered: 0 }, unreported: [] };
  for (const f of product) {
    const c = perFile[f];
    if (!c) {
      t.unreported.push(f);
      continue;
    }
    for (const k of ['statements', 'branches']) {
      t[k].total += c[k].total;
      t[k].covered += c[k].covered;
    }
  }
  const pct = (c) => (c.total ? (100 * c.covered) / c.total : undefined);
  return {
    ...t,
    statementsPct: pct(t.statements),
    branchesPct: pct(t.branches),
    untested: product.filter((f) => perFile[f] && !perFile[f].statements.covered).length,
  };
}
