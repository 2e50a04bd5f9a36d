// coverage.py around a pytest run, where the project's Python has it (server/src/coverage/python.ts
// reads its report, or measures with AMTP's own stdlib tracer where it has not).
import { spawnSync } from 'node:child_process';
import type { RunOptions } from './results';

export function hasPythonModule(python: string, module: string): boolean {
  return spawnSync(python, ['-c', `import ${module}`], { stdio: 'ignore' }).status === 0;
}

export function coveragePy(args: string[], opts: RunOptions): [string, string[]] {
  const include = (opts.coverageOf ?? []).join(',');
  return [opts.python ?? 'python3', ['-m', 'coverage', 'run', '--branch', `--include=${include}`, ...args]];
}
