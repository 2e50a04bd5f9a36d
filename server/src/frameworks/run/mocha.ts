// mocha: its JSON reporter written to a file (`--reporter json --reporter-option output=FILE`).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Parsed, TestOutcome } from './results';
import { bin, NO_RESULTS, relOf } from './results';
import type { FrameworkRunner } from './runnerTypes';
import { asText, grepOf } from './runnerTypes';

interface MochaTest {
  title: string;
  fullTitle: string;
  file?: string;
  err?: { message?: string; stack?: string; expected?: unknown; actual?: unknown };
}

export const mochaRunner: FrameworkRunner = {
  invocation(files, out, opts) {
    const file = join(out, 'mocha.json');
    const g = grepOf(opts, '|');
    const grep = g ? ['--grep', g] : [];
    return {
      cmd: process.execPath,
      args: [
        bin(opts, 'mocha/bin/mocha.js'),
        '--no-config',
        '--no-package',
        '--reporter',
        'json',
        '--reporter-option',
        `output=${file}`,
        ...grep,
        ...(opts.args ?? []),
        ...files,
      ],
      read: (_o, dir) => (existsSync(file) ? mochaResults(readFileSync(file, 'utf8'), dir) : NO_RESULTS),
    };
  },
};

/** mocha's JSON report as results; a failing "before all"/"after all" hook is its file's error. */
export function mochaResults(json: string, dir: string): Parsed {
  const r = JSON.parse(json) as {
    stats: { tests: number; passes: number; failures: number };
    passes?: MochaTest[];
    failures?: MochaTest[];
    pending?: MochaTest[];
  };
  const tests: TestOutcome[] = [];
  const fileErrors: Parsed['fileErrors'] = [];
  const add = (list: MochaTest[] | undefined, status: TestOutcome['status']) => {
    for (const t of list ?? []) {
      const rel = t.file ? relOf(dir, t.file) : undefined;
      // A failing "before all" hook or a load error is reported as a pseudo-test.
      if (status === 'failed' && /^"(before all|after all)" hook/.test(t.title)) {
        if (rel) fileErrors.push({ file: rel, message: t.err?.message ?? t.title });
        continue;
      }
      tests.push({ name: t.fullTitle, status, ...(rel ? { file: rel } : {}), ...(status === 'failed' ? failure(t.err) : {}) });
    }
  };
  add(r.passes, 'passed');
  add(r.failures, 'failed');
  add(r.pending, 'skipped');
  return { total: r.stats.tests, passed: r.stats.passes, failed: r.stats.failures, tests, fileErrors };
}

function failure(err: MochaTest['err']): Pick<TestOutcome, 'message' | 'expected' | 'actual'> {
  const expected = asText(err?.expected);
  const actual = asText(err?.actual);
  return {
    message: err?.stack || err?.message || 'failed',
    ...(expected !== undefined ? { expected } : {}),
    ...(actual !== undefined ? { actual } : {}),
  };
}
