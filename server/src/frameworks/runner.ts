// Runs written test files with a real runner and reads its machine-readable results.
// Used by the integration tests and bench/quality.mjs; runner binaries come from `binDir`'s
// node_modules (the project's own, or this repo's when testing fixtures).
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Framework } from '../pipeline/types';

export interface RunResult {
  total: number;
  passed: number;
  failed: number;
  /** statement coverage in percent of the measured files, when asked for and measurable */
  statements?: number;
  output: string;
}

export interface RunOptions {
  /** a directory whose node_modules holds the runners */
  binDir: string;
  /** extra CLI args (e.g. jest --config) */
  args?: string[];
  /** measure statement coverage of these workspace-relative files with c8 (coverage.py for pytest) */
  coverageOf?: string[];
  python?: string;
  env?: Record<string, string>;
  timeoutMs?: number;
}

export async function runTests(framework: Framework, dir: string, files: string[], opts: RunOptions): Promise<RunResult> {
  const out = mkdtempSync(join(tmpdir(), 'amtp-run-'));
  try {
    const { cmd, args, read } = invocation(framework, files, out, opts);
    // coverage.py is optional: without it the tests still run, unmeasured.
    const cov = opts.coverageOf?.length && (framework !== 'pytest' || hasPythonModule(opts.python ?? 'python3', 'coverage')) ? join(out, 'cov') : undefined;
    const [c, a] = cov && framework !== 'pytest' ? c8Wrap(cmd, args, cov, opts) : cov ? coveragePy(args, opts) : [cmd, args];
    const output = await exec(c, a, dir, { ...opts.env }, opts.timeoutMs ?? 120_000);
    const counts = read(output);
    const statements = cov ? (framework === 'pytest' ? await pyCoverage(dir, opts) : c8Statements(cov)) : undefined;
    return { ...counts, output, ...(statements !== undefined ? { statements } : {}) };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

function hasPythonModule(python: string, module: string): boolean {
  return spawnSync(python, ['-c', `import ${module}`], { stdio: 'ignore' }).status === 0;
}

function bin(opts: RunOptions, rel: string): string {
  return join(opts.binDir, 'node_modules', rel);
}

function invocation(framework: Framework, files: string[], out: string, opts: RunOptions): { cmd: string; args: string[]; read: (o: string) => Omit<RunResult, 'output'> } {
  const extra = opts.args ?? [];
  switch (framework) {
    case 'jest': {
      const file = join(out, 'jest.json');
      return { cmd: process.execPath, args: [bin(opts, 'jest/bin/jest.js'), '--ci', '--json', `--outputFile=${file}`, '--rootDir', '.', ...extra, ...files], read: () => jestLike(file) };
    }
    case 'vitest': {
      const file = join(out, 'vitest.json');
      // Forked workers are killed before V8 writes their coverage; worker threads report it to c8.
      const pool = opts.coverageOf?.length ? ['--pool=threads'] : [];
      return { cmd: process.execPath, args: [bin(opts, 'vitest/vitest.mjs'), 'run', '--root', '.', '--reporter=json', `--outputFile=${file}`, ...pool, ...extra, ...files], read: () => jestLike(file) };
    }
    case 'mocha': {
      const file = join(out, 'mocha.json');
      return { cmd: process.execPath, args: [bin(opts, 'mocha/bin/mocha.js'), '--no-config', '--no-package', '--reporter', 'json', '--reporter-option', `output=${file}`, ...extra, ...files], read: () => mochaJson(file) };
    }
    case 'node-test':
      return { cmd: process.execPath, args: [...extra, '--test', '--test-reporter=tap', ...files], read: tapCounts };
    case 'pytest': {
      const file = join(out, 'junit.xml');
      return { cmd: opts.python ?? 'python3', args: ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', `--junitxml=${file}`, ...extra, ...files], read: () => junitCounts(file) };
    }
  }
}

function c8Wrap(cmd: string, args: string[], covDir: string, opts: RunOptions): [string, string[]] {
  const include = (opts.coverageOf ?? []).flatMap((f) => ['--include', f]);
  return [process.execPath, [bin(opts, 'c8/bin/c8.js'), '--reporter=json-summary', '--report-dir', covDir, '--temp-directory', join(covDir, 'tmp'), '--exclude-after-remap', ...include, '--', cmd, ...args]];
}

function coveragePy(args: string[], opts: RunOptions): [string, string[]] {
  const include = (opts.coverageOf ?? []).join(',');
  return [opts.python ?? 'python3', ['-m', 'coverage', 'run', `--include=${include}`, ...args]];
}

async function pyCoverage(dir: string, opts: RunOptions): Promise<number | undefined> {
  const report = await exec(opts.python ?? 'python3', ['-m', 'coverage', 'json', '-o', '-'], dir, {}, 60_000).catch(() => '');
  const total = /"totals":\s*\{[^}]*"percent_covered":\s*([\d.]+)/.exec(report);
  rmSync(join(dir, '.coverage'), { force: true });
  return total ? Number(total[1]) : undefined;
}

function c8Statements(covDir: string): number | undefined {
  const file = join(covDir, 'coverage-summary.json');
  if (!existsSync(file)) return undefined;
  const summary = JSON.parse(readFileSync(file, 'utf8')) as { total: { statements: { pct: number | string } } };
  const pct = Number(summary.total.statements.pct);
  return Number.isFinite(pct) ? pct : undefined;
}

function jestLike(file: string): Omit<RunResult, 'output'> {
  if (!existsSync(file)) return { total: 0, passed: 0, failed: 0 };
  const r = JSON.parse(readFileSync(file, 'utf8')) as { numTotalTests: number; numPassedTests: number; numFailedTests: number };
  return { total: r.numTotalTests, passed: r.numPassedTests, failed: r.numFailedTests };
}

function mochaJson(file: string): Omit<RunResult, 'output'> {
  if (!existsSync(file)) return { total: 0, passed: 0, failed: 0 };
  const r = JSON.parse(readFileSync(file, 'utf8')) as { stats: { tests: number; passes: number; failures: number } };
  return { total: r.stats.tests, passed: r.stats.passes, failed: r.stats.failures };
}

export function tapCounts(output: string): Omit<RunResult, 'output'> {
  const n = (k: string) => Number(new RegExp(`^# ${k} (\\d+)`, 'm').exec(output)?.[1] ?? 0);
  return { total: n('tests'), passed: n('pass'), failed: n('fail') };
}

function junitCounts(file: string): Omit<RunResult, 'output'> {
  if (!existsSync(file)) return { total: 0, passed: 0, failed: 0 };
  const xml = readFileSync(file, 'utf8');
  const attr = (k: string) => Number(new RegExp(`<testsuite[^>]*\\s${k}="(\\d+)"`).exec(xml)?.[1] ?? 0);
  const total = attr('tests') - attr('skipped');
  const failed = attr('failures') + attr('errors');
  return { total, passed: total - failed, failed };
}

function exec(cmd: string, args: string[], cwd: string, env: Record<string, string>, timeout: number): Promise<string> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd, env: { ...process.env, ...env, FORCE_COLOR: '0', NO_COLOR: '1' }, timeout, maxBuffer: 32 * 1024 * 1024 }, (_err, stdout, stderr) => resolve(`${stdout}\n${stderr}`));
  });
}
