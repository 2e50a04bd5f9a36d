// jest: its JSON report written to a file (`--json --outputFile`), read by ../run/jestLikeReport.ts.
import { join } from 'node:path';
import { readJestLike } from '../run/jestLikeReport';
import { runnerEntryOf, type RunnerPackage } from '../run/runnerPackage';
import type { FrameworkRunner } from '../run/runnerTypes';
import { grepOf } from '../run/runnerTypes';

const JEST: RunnerPackage = { pkg: 'jest', command: 'jest', known: 'jest/bin/jest.js' };

export const jestRunner: FrameworkRunner = {
  package: JEST,
  invocation(files, out, opts) {
    const file = join(out, 'jest.json');
    const g = grepOf(opts, 'regex');
    const grep = g ? ['-t', g] : [];
    return {
      cmd: process.execPath,
      args: [
        runnerEntryOf(opts.binDir, JEST),
        '--ci',
        '--json',
        `--outputFile=${file}`,
        '--rootDir',
        '.',
        ...grep,
        ...(opts.args ?? []),
        ...files,
      ],
      read: (_o, dir) => readJestLike(file, dir),
    };
  },
};
