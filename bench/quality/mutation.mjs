// Mutation score of the kept tests with StrykerJS 9.x (bench's install, tools.mjs): it mutates the
// product modules the kept tests reach (coverage > 0; else the ones the test files import) and runs
// ONLY the kept files, with the runner plugin of the
// package's framework (the command runner for ava and node:test), concurrency 1, under a time
// limit per package. Score = (killed + timed out) / (killed + timed out + survived + no coverage),
// as Stryker and issue 23 count it. A run cut by the time limit reports the mutants tested so far
// (parsed from Stryker's progress lines) and says it is partial. Python: no mutation tool is
// packaged by Debian (apt-cache search mutmut / cosmic-ray / mutatest finds none), so "not measured".
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { configText, mentions, WORK } from './prepare.mjs';
import { STRYKER_RUNNER, versionIn } from './tools.mjs';
import { runnerCommand } from './coverage.mjs';

export const MUTATION_LIMIT_MS = 12 * 60_000;
const SPEC = /(?:require\(\s*|from\s+|import\(\s*)(['"])([^'"]+)\1/g;
const RESOLVE = ['', '.js', '.cjs', '.mjs', '.ts', '/index.js', '/index.ts'];

/** Package files the kept test files import (relative specifiers and the package's own name through its main). */
export function importedModules(dir, files) {
  const pkg = existsSync(join(dir, 'package.json')) ? JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) : {};
  const out = new Set();
  for (const file of files) {
    for (const m of readFileSync(join(dir, file), 'utf8').matchAll(SPEC)) {
      let target;
      if (m[2].startsWith('.')) target = resolve(dir, dirname(file), m[2]);
      else if (pkg.name && m[2] === pkg.name && pkg.main) target = resolve(dir, pkg.main);
      // TypeScript's ESM convention: `./x.js` names the source `./x.ts`
      const stems = target ? [target, target.replace(/\.([cm]?)js$/, '.$1ts')] : [];
      const hit = stems.flatMap((t) => RESOLVE.map((e) => t + e)).find((p) => existsSync(p) && statSync(p).isFile());
      if (hit && !relative(dir, hit).startsWith('..') && !/node_modules/.test(hit)) out.add(relative(dir, hit));
    }
  }
  return [...out].filter((f) => !files.includes(f)).sort();
}

/**
 * Stryker 9's mocha runner drives mocha 7.2–11 (deep-extend@0.6.0's mocha 5.2.0: "no TestRunner
 * plugins were loaded"), its vitest runner vitest 2 on (it calls `ctx.provide`, which vitest 1 lacks:
 * "this.ctx.provide is not a function") and its tap runner tap 18 on (beside ini@4.1.3's tap 16 it
 * fails to load: yaml-types "Class extends value undefined"); another version goes through the
 * command runner. So does a mocha config that requires `esm` (mitt@3.0.1): the mocha runner refuses
 * it ('Config option "mochaOptions.require" does not support "esm"').
 */
function pluginFor(framework, root, dir) {
  const pkg = () => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  if (framework === 'mocha' && mentions(configText(dir, pkg(), 'mocha'), 'esm')) return undefined;
  if (framework !== 'mocha' && framework !== 'vitest' && framework !== 'node-tap') return STRYKER_RUNNER[framework];
  const name = framework === 'node-tap' ? 'tap' : framework;
  const [major, minor] = versionIn(join(root, 'node_modules'), name).split('.').map(Number);
  if (framework === 'vitest') return major >= 2 ? STRYKER_RUNNER.vitest : undefined;
  if (framework === 'node-tap') return major >= 18 ? STRYKER_RUNNER['node-tap'] : undefined;
  return major >= 12 || major < 7 || (major === 7 && minor < 2) ? undefined : STRYKER_RUNNER.mocha;
}

function config(framework, files, mutate, root, plan, dir) {
  const plugin = pluginFor(framework, root, dir);
  const c = {
    mutate,
    testRunner: plugin ? plugin.replace('@stryker-mutator/', '').replace('-runner', '') : 'command',
    concurrency: 1,
    timeoutMS: 10_000,
    coverageAnalysis: plugin && plugin !== STRYKER_RUNNER['node-tap'] ? 'perTest' : 'off',
    reporters: ['json', 'progress-append-only'],
    jsonReporter: { fileName: join(root, '.bench-mutation.json') },
    tempDirName: '.stryker-tmp',
    cleanTempDir: true,
    disableTypeChecks: '{src,lib,dist}/**/*.{js,ts,jsx,tsx,html,vue,cjs,mjs,mts,cts}',
    ignorePatterns: ['.amtp'],
  };
  if (framework === 'mocha' && plugin)
    c.mochaOptions = { spec: files, ...(plan.args.includes('import=tsx') ? { 'node-option': ['import=tsx'] } : {}) };
  if (framework === 'jest') {
    const configFile = plan.args[plan.args.indexOf('--config') + 1];
    c.jest = {
      ...(plan.args.includes('--config') ? { configFile } : {}),
      config: { testMatch: files.map((f) => `<rootDir>/${f}`), testPathIgnorePatterns: ['/node_modules/'] },
    };
  }
  if (framework === 'vitest') c.vitest = { related: false };
  if (framework === 'node-tap') c.tap = { testFiles: files };
  if (!plugin) {
    c.commandRunner = { command: runnerCommand(framework, join(root, 'node_modules/.bin'), files, plan.args).map(quote).join(' ') };
    // the command runner is built in: loading the runner plugins installed beside an old framework can crash Stryker (tap 16)
    c.plugins = [];
  }
  return c;
}
const quote = (s) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`);

/** The score from Stryker's JSON report (mutation-testing-report-schema). */
function fromReport(file) {
  const counts = { Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0, other: 0 };
  for (const f of Object.values(JSON.parse(readFileSync(file, 'utf8')).files))
    for (const m of f.mutants) counts[m.status in counts ? m.status : 'other'] += 1;
  const detected = counts.Killed + counts.Timeout;
  const valid = detected + counts.Survived + counts.NoCoverage;
  return { ...counts, mutants: valid, score: valid ? (100 * detected) / valid : undefined };
}

/** The last progress line, for a run cut by the time limit: "… 150/356 tested (30 survived, 2 timed out)". */
function fromProgress(output) {
  const all = [...output.matchAll(/(\d+)\/(\d+) tested \((\d+) survived, (\d+) timed out\)/g)];
  const m = all[all.length - 1];
  if (!m) return undefined;
  const [tested, total, survived] = [+m[1], +m[2], +m[3]];
  return { partial: true, tested, mutants: total, Survived: survived, score: tested ? (100 * (tested - survived)) / tested : undefined };
}

/** Runs Stryker in the package folder; resolves to { score, mutants, … } or { problem }. */
export function mutationScore({ framework, dir, root, files, plan, reached = [], limitMs = MUTATION_LIMIT_MS }) {
  if (framework === 'pytest') return Promise.resolve({ problem: 'not measured: no Python mutation tool is packaged by Debian' });
  const mutate = reached.length ? reached : importedModules(dir, files);
  if (!mutate.length) return Promise.resolve({ problem: 'the kept tests import no module of the package' });
  const confFile = join(root, 'stryker.bench.conf.json');
  writeFileSync(confFile, JSON.stringify(config(framework, files, mutate, root, plan, dir), null, 2));
  const started = performance.now();
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(root, 'node_modules/@stryker-mutator/core/bin/stryker.js'), 'run', confFile], {
      cwd: dir,
      env: { ...process.env, ...plan.env },
      detached: true,
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* gone already */
      }
    }, limitMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      const ms = Math.round(performance.now() - started);
      // Stryker's whole output outlives the workspace: the last lines rarely say why it failed
      mkdirSync(join(WORK, 'stryker-logs'), { recursive: true });
      writeFileSync(join(WORK, 'stryker-logs', `${basename(root)}.log`), output);
      const report = join(root, '.bench-mutation.json');
      if (code === 0 && existsSync(report)) return done({ ...fromReport(report), mutated: mutate, ms });
      const partial = fromProgress(output);
      const why = `${code === null ? `cut at the ${limitMs / 60000} min limit` : `stryker exited ${code}`}: ${output.trim().split('\n').slice(-4).join(' ⏎ ').slice(-600)}`;
      done(partial ? { ...partial, mutated: mutate, ms, problem: why } : { problem: why, mutated: mutate, ms });
    });
  });
}
