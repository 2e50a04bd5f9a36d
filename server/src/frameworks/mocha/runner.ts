// mocha: its JSON reporter written to a file (`--reporter json --reporter-option output=FILE`).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Parsed, TestOutcome } from '../run/results';
import { NO_RESULTS, relOf } from '../run/results';
import { assetFile } from '../assets';
import { runnerEntryOf, runnerVersionOf, type RunnerPackage } from '../run/runnerPackage';
import type { FrameworkRunner } from '../run/runnerTypes';
import { grepOf } from '../run/runnerTypes';
import { fromPrinted } from '../run/reportedValues';

interface MochaTest {
  title: string;
  fullTitle: string;
  file?: string;
  /** `amtpValues`: the assertion's values as literals, printed in mocha's process (assets/amtp.mocha-values.cjs) */
  err?: { message?: string; stack?: string; amtpValues?: unknown };
}

const MOCHA: RunnerPackage = { pkg: 'mocha', command: 'mocha', known: 'mocha/bin/mocha.js' };

export const mochaRunner: FrameworkRunner = {
  package: MOCHA,
  invocation(files, out, opts) {
    const file = join(out, 'mocha.json');
    const g = grepOf(opts, 'regex');
    const grep = g ? ['--grep', g] : [];
    // The file's name when mocha's report cannot say it (its JSON has `file` from mocha 6 on).
    const only = files.length === 1 ? files[0] : undefined;
    return {
      cmd: process.execPath,
      args: [runnerEntryOf(opts.binDir, MOCHA), ...reportFlags(opts.binDir, out, file), ...grep, ...(opts.args ?? []), ...files],
      // mocha before 9.1 ran AMTP's reporter, which writes the file too; stdout is read when no file was written.
      read: (output, dir) => (existsSync(file) ? mochaResults(readFileSync(file, 'utf8'), dir, only) : fromStdout(output, dir, only)),
    };
  },
};

/**
 * The JSON reporter, written to `file` where mocha can (9.1 on; before, it goes to stdout), and the
 * flags that keep the project's own mocha config out (their names changed with mocha 6 and 8; mocha 5's
 * commander also refuses `--reporter-option`, which it spells `--reporter-options`).
 */
function reportFlags(binDir: string, out: string, file: string): string[] {
  const [major, minor] = runnerVersionOf(binDir, MOCHA) ?? [];
  // Before 9.1 mocha's JSON reporter prints on stdout, which AMTP keeps to 8 MB: AMTP's own reporter
  // (amtp.mocha-report.cjs) writes the same shape to the file. From 9.1 mocha's JSON reporter writes
  // it, wrapped (amtp.mocha-json.cjs); both record the assertions' values before mocha makes them text.
  const toFile = major === undefined || major > 9 || (major === 9 && (minor ?? 0) >= 1);
  const reporter = assetFile(toFile ? 'amtp.mocha-json.cjs' : 'amtp.mocha-report.cjs');
  const json = ['--reporter', reporter, '--reporter-option', `output=${file}`];
  if (major === undefined || major >= 8) return ['--no-config', '--no-package', ...json];
  if (major >= 6) return ['--no-config', '--no-package', '--no-opts', ...json];
  // mocha < 6 reads the project's mocha.opts unless told another opts file: here one that does not exist.
  return ['--opts', join(out, 'none.opts'), '--reporter', reporter, '--reporter-options', `output=${file}`];
}

/** The JSON report mocha printed (pretty, starting with `"stats"`, closed by a `}` at column 0). */
export function fromStdout(output: string, dir: string, only?: string): Parsed {
  const start = output.lastIndexOf('{\n  "stats"');
  if (start < 0) return NO_RESULTS;
  const end = output.indexOf('\n}', start);
  try {
    return mochaResults(output.slice(start, end < 0 ? undefined : end + 2), dir, only);
  } catch {
    return NO_RESULTS;
  }
}

/** The suite amtp.mocha-load-errors.cjs makes of a test file that threw while it loaded (its hook fails with the error). */
const LOAD_ERROR = /^AMTP: the test file does not load: (.+) "before all" hook/;

/** mocha's JSON report as results; a failing "before all"/"after all" hook is its file's error. */
export function mochaResults(json: string, dir: string, only?: string): Parsed {
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
      const notLoaded = LOAD_ERROR.exec(t.fullTitle)?.[1];
      const rel = t.file ? relOf(dir, t.file) : notLoaded ? relOf(dir, notLoaded) : only && relOf(dir, only);
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

/**
 * The failure's message, and its values as AMTP's reporters printed them in mocha's process. Not
 * `err.expected`/`err.actual`: mocha's Base reporter has turned values of one type into text for its
 * diff (9 and 8 arrive as "9" and "8", like the strings '9' and '8'), so the report cannot tell their type.
 */
function failure(err: MochaTest['err']): Pick<TestOutcome, 'message' | 'expected' | 'actual'> {
  return { message: err?.stack || err?.message || 'failed', ...fromPrinted(err?.amtpValues) };
}
