// Statements and branches of ONLY the kept tests, under the package's own runner, over ALL its
// product files (product.mjs), measured by tools that are not AMTP's:
// - mocha, ava, node-tap, node:test: c8 --all (V8 coverage; built files with source maps are
//   mapped back to their sources, --exclude-after-remap) with --experimental-monocart, so branches
//   are counted on the syntax tree like istanbul's (V8's own blocks count an unrun function as one);
// - jest: jest's own --coverage with collectCoverageFrom = the product files (istanbul, as nyc);
// - vitest: vitest's own --coverage (@vitest/coverage-v8, from the bench's install) with include =
//   the product files (vitest transforms every file it loads, which a c8 outside cannot map back);
//   where it reports no product file at all (vitest 1 never reports a file under dist/: its coverage
//   exclude always holds `**/dist/**`), c8 --all around vitest, with the code vite-node ran through
//   node:vm recorded beside the V8 files (vmSources.cjs) so that c8 reads V8's offsets in it;
// - pytest: coverage.py `run --branch --source` (Debian's python3-coverage), then `coverage json`.
// Each yields per-file { statements, branches } as { total, covered }.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pythonCoverage } from './tools.mjs';

const TIMEOUT_MS = 10 * 60_000;
const EXTENSIONS = ['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts'];

/** The command that runs the kept files under the package's runner (`bin`: root/node_modules/.bin). */
export function runnerCommand(framework, bin, files, args = []) {
  if (framework === 'mocha') return [join(bin, 'mocha'), ...args, ...files];
  if (framework === 'ava') return [join(bin, 'ava'), ...args, ...files];
  if (framework === 'node-tap') return [join(bin, 'tap'), '--disable-coverage', '--reporter=tap', ...args, ...files];
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

/** The environment with the recorder of vitest's vm-run modules preloaded (vmSources.cjs). */
function withVmSources(env) {
  const preload = `--require ${JSON.stringify(fileURLToPath(new URL('./vmSources.cjs', import.meta.url)))}`;
  const inherited = env.NODE_OPTIONS ?? process.env.NODE_OPTIONS;
  return { ...env, NODE_OPTIONS: inherited ? `${inherited} ${preload}` : preload };
}

function jsCoverage({ framework, dir, root, files, product, env, args }) {
  const out = join(root, '.bench-coverage');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const bin = join(root, 'node_modules/.bin');
  // tap 18 runs each file in a child with its own V8 coverage folder, hidden from c8: under c8 the
  // files run through node:test instead (a tap file is a plain node script that prints TAP)
  const runner =
    framework === 'node-tap'
      ? runnerCommand('node-test', bin, files, [])
      : runnerCommand(framework === 'vitest-c8' ? 'vitest' : framework, bin, files, args);
  let cmd;
  if (framework === 'jest') {
    cmd = [
      ...runner.slice(0, -files.length - 1),
      '--coverage',
      '--coverageProvider=babel',
      '--coverageReporters=json-summary',
      `--coverageDirectory=${out}`,
      ...product.map((f) => `--collectCoverageFrom=${f}`),
      '--runTestsByPath',
      ...files,
    ];
  } else if (framework === 'vitest') {
    cmd = [
      ...runner,
      '--coverage.enabled=true',
      '--coverage.provider=v8',
      '--coverage.all=true',
      '--coverage.reporter=json-summary',
      `--coverage.reportsDirectory=${out}`,
      // vitest's default exclude drops dist/** and test files: the product list decides instead
      '--coverage.exclude=**/node_modules/**',
      ...product.map((f) => `--coverage.include=${f}`),
    ];
  } else {
    cmd = [
      join(bin, 'c8'),
      '--all',
      '--experimental-monocart',
      `--src=${dir}`,
      '--exclude-after-remap',
      '--reporter=json-summary',
      `--reports-dir=${out}`,
      `--temp-directory=${join(root, '.bench-c8tmp')}`,
      ...EXTENSIONS.map((e) => `--extension=${e}`),
      ...product.map((f) => `--include=${f}`),
      ...runner,
    ];
  }
  const r = run(cmd, dir, framework === 'vitest-c8' ? withVmSources(env) : env);
  const perFile = fromSummary(join(out, 'coverage-summary.json'), dir, product);
  // vitest's own coverage reports nothing under dist/ (pathe@1.1.2, defu@6.1.4, superstruct@2.0.2):
  // c8 outside reads those files as vite-node or Node ran them.
  if (
    framework === 'vitest' &&
    !Object.keys(perFile).length &&
    (r.exit === 0 || !existsSync(join(root, 'node_modules/@vitest/coverage-v8')))
  )
    return { ...jsCoverage({ framework: 'vitest-c8', dir, root, files, product, env, args }), tool: 'c8 --all around vitest' };
  return { ...r, perFile };
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

/** Per-file coverage of the kept tests; `env`/`args` are the run plan's (verifier/runPlan.ts). */
export function keptCoverage(opts) {
  return opts.framework === 'pytest' ? pyCoverage(opts) : jsCoverage(opts);
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
