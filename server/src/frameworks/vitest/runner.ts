// vitest: its JSON reporter written to a file (`--reporter=json --outputFile`), jest's shape (../run/jestLikeReport.ts).
import { join } from 'node:path';
import { readJestLike } from '../run/jestLikeReport';
import { runnerEntryOf, runnerVersionOf, type RunnerPackage } from '../run/runnerPackage';
import type { FrameworkRunner } from '../run/runnerTypes';
import { grepOf } from '../run/runnerTypes';

const VITEST: RunnerPackage = { pkg: 'vitest', command: 'vitest', known: 'vitest/vitest.mjs' };

export const vitestRunner: FrameworkRunner = {
  package: VITEST,
  invocation(files, out, opts) {
    const file = join(out, 'vitest.json');
    // Forked workers are killed before V8 writes their coverage; worker threads report it to c8. Vitest
    // 0.x runs in threads already and has no --pool (its argument parser refuses the run: hookable@5.5.3).
    const major = runnerVersionOf(opts.binDir, VITEST)?.[0];
    const pool = opts.coverageOf?.length && (major === undefined || major >= 1) ? ['--pool=threads'] : [];
    const g = grepOf(opts, 'regex');
    const grep = g ? ['-t', g] : [];
    return {
      cmd: process.execPath,
      args: [
        runnerEntryOf(opts.binDir, VITEST),
        'run',
        '--root',
        '.',
        '--reporter=json',
        `--outputFile=${file}`,
        ...pool,
        ...grep,
        ...(opts.args ?? []),
        ...files,
      ],
      read: (_o, dir) => readJestLike(file, dir),
    };
  },
};
