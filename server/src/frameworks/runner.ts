// Runs written test files with a real runner and reads its machine-readable results.
// Used by the verifier (server/src/verifier), the integration tests and bench/quality.mjs; runner
// binaries come from `binDir`'s node_modules (the project's own, or this repo's when testing fixtures).
//
// The parts: frameworks/run/spawn.ts (process group, timeout, kill, output cap, abort),
// each framework's runner (frameworks/<id>/runner.ts: its command and report parser, from frameworks/registry.ts),
// server/src/coverage (what the run covered: nothing needs to be installed in the project).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative } from 'node:path';
import type { Framework } from '../core/frameworks';
import { jsMeasurement, type PerTestHook } from '../coverage/measure';
import { pythonUnits, tracedPytest } from '../coverage/python';
import type { MeasuredUnits } from '../coverage/units';
import { asset, assetFile } from './assets';
import { caseReader, testsInFile, type FileTest } from './caseMap';
import { FRAMEWORK_REGISTRY } from './registry';
import { quoted } from './run/confine';
import { coveragePy, hasPythonModule } from './run/pythonCoverage';
import type { RunOptions, RunResult } from './run/results';
import { exec } from './run/spawn';

export type { CoverageUnits, RunOptions, RunResult, TestOutcome } from './run/results';
export { nodeTestResults as tapResults } from './node-test/runner';

export async function runTests(framework: Framework, dir: string, files: string[], opts: RunOptions): Promise<RunResult> {
  const out = mkdtempSync(join(tmpdir(), 'amtp-run-'));
  try {
    const { cmd, args, read } = FRAMEWORK_REGISTRY[framework].runner.invocation(files, out, opts);
    // Coverage needs nothing in the project (server/src/coverage/): V8 or jest's own provider for
    // JavaScript, coverage.py or AMTP's stdlib tracer for Python.
    const cov = opts.coverageOf?.length ? join(out, 'cov') : undefined;
    const pyReport = join(out, 'coverage.json');
    const covPy = cov && framework === 'pytest' && hasPythonModule(opts.python ?? 'python3', 'coverage');
    const js = cov && framework !== 'pytest' ? jsMeasurementOf(framework, cov, dir, opts, files) : undefined;
    const [c, a] = js
      ? [cmd, js.args.length ? [args[0], ...js.args, ...args.slice(1)] : args]
      : covPy
        ? coveragePy(args, opts)
        : cov
          ? tracedPytest(opts.python ?? 'python3', asset('pytrace.py'), pyReport, opts.coverageOf!, dir, args.slice(2))
          : [cmd, args];
    // The measurement's NODE_OPTIONS (a preload) joins the run plan's (tsx, ESM flags), never replaces it.
    const nodeOptions = [opts.env?.NODE_OPTIONS, js?.env.NODE_OPTIONS].filter(Boolean).join(' ');
    const env = {
      ...opts.env,
      ...js?.env,
      ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}),
      ...(covPy ? { COVERAGE_FILE: join(out, '.coverage') } : {}),
    };
    const proc = await exec(c, a, dir, env, opts.timeoutMs ?? 120_000, opts.signal, opts.onSpawn);
    const parsed = read(proc.output, dir);
    let coverage: Pick<RunResult, 'statements' | 'branches' | 'units' | 'allUnits' | 'unitKeys' | 'map' | 'coverageTool' | 'perTest'> = {};
    if (cov && !proc.timedOut && !proc.cancelled) {
      if (js) {
        const m = await js.collect();
        if (m) coverage = { ...fromUnits(m.units), map: m.map, coverageTool: js.tool, ...(m.perTest ? { perTest: m.perTest } : {}) };
      } else {
        if (covPy)
          await exec(
            opts.python ?? 'python3',
            ['-m', 'coverage', 'json', '-o', pyReport],
            dir,
            { COVERAGE_FILE: join(out, '.coverage') },
            60_000,
          );
        const m = pythonUnits(pyReport, dir);
        if (m) coverage = { ...fromUnits(m), coverageTool: covPy ? 'coverage.py' : 'amtp trace (lines)' };
      }
    }
    return {
      ...parsed,
      output: proc.output,
      ...dropUndefined(coverage),
      timedOut: proc.timedOut,
      cancelled: proc.cancelled,
      pid: proc.pid,
      exitCode: proc.code,
    };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

function jsMeasurementOf(framework: Exclude<Framework, 'pytest'>, cov: string, dir: string, opts: RunOptions, files: string[]) {
  const preload = `--require ${quoted(assetFile('amtp.v8-sources.cjs'))}`;
  return jsMeasurement(framework, cov, dir, opts.coverageOf!, preload, perTestHook(framework, opts, dir, files));
}

/**
 * How a run asked for per-test coverage gets it from its one process (server/src/coverage/perTest.ts),
 * or undefined where this runner cannot give it (the verifier then runs each test alone: docs/verifier.md).
 */
function perTestHook(framework: Framework, opts: RunOptions, dir: string, files: string[]): PerTestHook | undefined {
  if (!opts.perTest) return undefined;
  if (!perTestSupported(framework)) return undefined;
  const idOf = takeCaseIds(dir, files);
  // Through NODE_OPTIONS the path is quoted as the option parser reads it (a folder with a space).
  if (framework === 'node-test') return { preload: quoted(assetFile('amtp.v8-pertest.cjs')), via: 'nodeOptions', idOf };
  return { preload: assetFile('amtp.v8-pertest-mocha.cjs'), via: 'spec', idOf };
}

/** A per-test take's case id: its label read as a runner's result name against its own file's tests, or every run file's when the file is unknown. */
function takeCaseIds(dir: string, files: string[]): PerTestHook['idOf'] {
  const tests = new Map<string, FileTest[]>();
  for (const f of files)
    try {
      tests.set(f, testsInFile(f, readFileSync(join(dir, f), 'utf8')));
    } catch {
      tests.set(f, []);
    }
  const read = caseReader(tests, false);
  return (label, file) => read(label, file ? (isAbsolute(file) ? relative(dir, file) : file).split('\\').join('/') : undefined);
}

/** Runners whose one process gives each test's coverage: node:test (hooks on its root test), mocha (root-suite hooks). */
export function perTestSupported(framework: Framework): boolean {
  return framework === 'node-test' || framework === 'mocha';
}

function fromUnits(m: MeasuredUnits): Pick<RunResult, 'statements' | 'branches' | 'units' | 'allUnits' | 'unitKeys'> {
  return dropUndefined({ statements: m.statements, branches: m.branches, units: m.units, allUnits: m.unitKeys.size, unitKeys: m.unitKeys });
}

function dropUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
