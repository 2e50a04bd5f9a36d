// Runs written test files with a real runner and reads its machine-readable results.
// Used by the verifier (server/src/verifier), the integration tests and bench/quality.mjs; runner
// binaries come from `binDir`'s node_modules (the project's own, or this repo's when testing fixtures).
//
// The parts: frameworks/run/spawn.ts (process group, timeout, kill, output cap, abort),
// frameworks/run/index.ts RUNNERS (each framework's command and report parser, one file each),
// frameworks/run/legacyCoverage.ts (c8 / coverage.py around the run).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Framework } from '../core/frameworks';
import { RUNNERS } from './run';
import { c8Coverage, c8Wrap, coveragePy, hasPythonModule, pyCoverage } from './run/legacyCoverage';
import type { CoverageUnits, RunOptions, RunResult } from './run/results';
import { exec } from './run/spawn';

export type { CoverageUnits, RunOptions, RunResult, TestOutcome } from './run/results';
export { nodeTestResults as tapResults } from './run/nodeTest';

export async function runTests(framework: Framework, dir: string, files: string[], opts: RunOptions): Promise<RunResult> {
  const out = mkdtempSync(join(tmpdir(), 'amtp-run-'));
  try {
    const { cmd, args, read } = RUNNERS[framework].invocation(files, out, opts);
    // coverage.py is optional: without it the tests still run, unmeasured.
    const cov = opts.coverageOf?.length && (framework !== 'pytest' || hasPythonModule(opts.python ?? 'python3', 'coverage')) ? join(out, 'cov') : undefined;
    const [c, a] = cov && framework !== 'pytest' ? c8Wrap(cmd, args, cov, opts) : cov ? coveragePy(args, opts) : [cmd, args];
    const env = { ...opts.env, ...(cov && framework === 'pytest' ? { COVERAGE_FILE: join(out, '.coverage') } : {}) };
    const proc = await exec(c, a, dir, env, opts.timeoutMs ?? 120_000, opts.signal, opts.onSpawn);
    const parsed = read(proc.output, dir);
    let coverage: { statements?: number; units?: CoverageUnits; allUnits?: number; unitKeys?: CoverageUnits } = {};
    if (cov && !proc.timedOut && !proc.cancelled) coverage = framework === 'pytest' ? await pyCoverage(dir, out, opts) : c8Coverage(cov, dir);
    return { ...parsed, output: proc.output, ...dropUndefined(coverage), timedOut: proc.timedOut, cancelled: proc.cancelled, pid: proc.pid, exitCode: proc.code };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

function dropUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
