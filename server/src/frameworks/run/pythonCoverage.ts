// coverage.py around a pytest run, where the project's Python has it (server/src/coverage/python.ts
// reads its report, or measures with AMTP's own stdlib tracer where it has not).
import { spawnSync } from 'node:child_process';
import { childEnv, inTempHome } from '../../util/childEnv';
import type { RunOptions } from './results';

/** `module` importable by `python` (from a neutral folder: a file in the workspace cannot answer for it). */
export function hasPythonModule(python: string, module: string): boolean {
  return inTempHome(
    (home) => spawnSync(python, ['-c', `import ${module}`], { stdio: 'ignore', cwd: home, env: childEnv({ home }) }).status === 0,
  );
}

export function coveragePy(args: string[], opts: RunOptions): [string, string[]] {
  const include = (opts.coverageOf ?? []).join(',');
  return [opts.python ?? 'python3', ['-m', 'coverage', 'run', '--branch', `--include=${include}`, ...args]];
}
