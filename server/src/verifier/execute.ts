import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CASE_ID, caseFinder, namesOfCases, testsInFile, type FileTest } from '../frameworks/caseMap';
import { runTests as realRunTests, type RunResult, type TestOutcome } from '../frameworks/runner';
import type { ReportedValues } from '../frameworks/run/reportedValues';

type RunTests = typeof realRunTests;
import { CancelledError } from '../core/errors';
import type { RunPlan } from './runPlan';

type ObservedStatus = 'passed' | 'failed' | 'skipped' | 'missing' | 'load_error' | 'not_collected' | 'timeout';

/** What jest and vitest say when the file they were given is outside their roots or patterns: they never looked at it. */
const NOT_COLLECTED = /\bNo tests found, exiting with code|\bNo test files? found\b|\d+ files? checked\.[\s\S]*testMatch/;

export interface RunOpts {
  grep?: string | string[];
  coverageOf?: string[];
  /** each test's coverage from the same process, where the runner gives it (RunResult.perTest) */
  perTest?: boolean;
}

export interface Observation {
  status: ObservedStatus;
  name?: string;
  message?: string;
  /** the failing assertion's expected/actual literals, when the runner's report carries them (frameworks/run/reportedValues.ts) */
  reported?: ReportedValues;
}

/** Runs one test file at a time and says, per case id, what happened. Counts executions and keeps every process-group id. */
export class CaseRunner {
  executions = 0;
  constructor(
    private readonly plan: RunPlan,
    private readonly workspace: string,
    private readonly timeoutMs: number,
    private readonly signal: AbortSignal | undefined,
    private readonly onPid: (pid: number) => void,
    /** frameworks/runner.ts runTests, or a recording's tap / a replay of it */
    private readonly runTests: RunTests = realRunTests,
  ) {}

  async run(file: string, caseIds: string[], opts: RunOpts = {}): Promise<{ obs: Map<string, Observation>; result: RunResult }> {
    const result = await this.invoke([file], opts);
    return { obs: this.observe(result, file, caseIds), result };
  }

  /**
   * All the files in ONE runner invocation (docs/verifier.md, "How tests are run"). Each test is found
   * by its case id; a file that reported none of its tests is judged by its own load error. A file
   * the run says nothing about (a runner that stops at the first file that does not load, a file it
   * did not collect, a run that timed out) is then run on its own, so one broken file only fails its
   * own tests and is attributed as it would be alone. `results`: every invocation's, for coverage.
   */
  async runAll(
    entries: { file: string; ids: string[] }[],
    opts: RunOpts = {},
  ): Promise<{ obs: Map<string, Observation>; results: RunResult[] }> {
    if (entries.length === 1) {
      const { obs, result } = await this.run(entries[0].file, entries[0].ids, opts);
      return { obs, results: [result] };
    }
    const obs = new Map<string, Observation>();
    const results: RunResult[] = [];
    let alone: { file: string; ids: string[] }[] = [];
    if (entries.length) {
      const result = await this.invoke(
        entries.map((e) => e.file),
        opts,
      );
      results.push(result);
      const crashed = !result.timedOut && !result.tests.length && !result.fileErrors.length && result.exitCode !== 0;
      // A runner that stopped while loading names the file in its error: that file alone, the others together again.
      const culprits = crashed ? entries.filter((e) => result.output.includes(e.file)) : [];
      if (culprits.length && culprits.length < entries.length) {
        const rest = await this.runAll(
          entries.filter((e) => !culprits.includes(e)),
          opts,
        );
        for (const [id, o] of rest.obs) obs.set(id, o);
        results.push(...rest.results);
        alone = culprits;
      } else {
        const owners = this.owners(
          result,
          entries.map((e) => e.file),
        );
        for (const e of entries) {
          const own = result.timedOut ? undefined : this.attributed(result, e.file, e.ids, owners);
          if (own) for (const [id, o] of own) obs.set(id, o);
          else alone.push(e);
        }
      }
    }
    for (const e of alone) {
      const { obs: one, result } = await this.run(e.file, e.ids, opts);
      for (const [id, o] of one) obs.set(id, o);
      results.push(result);
    }
    return { obs, results };
  }

  /** Several files in ONE invocation, read file by file (no file run alone: the caller decides what a run with a load error means). */
  async runFiles(
    files: { path: string; ids: string[] }[],
    opts: RunOpts = {},
  ): Promise<{ obs: Map<string, Observation>; result: RunResult }> {
    const result = await this.invoke(
      files.map((f) => f.path),
      opts,
    );
    const obs = new Map<string, Observation>();
    const owners = this.owners(
      result,
      files.map((f) => f.path),
    );
    for (const f of files) {
      const own = this.own(result, f.path, files.length === 1);
      for (const [id, o] of this.observe(own, f.path, f.ids, this.resultsByCase(own, f.path, owners))) obs.set(id, o);
    }
    return { obs, result };
  }

  /** A run's file errors as one file sees them: its own (and, run alone, whatever the runner reported). */
  private own(result: RunResult, file: string, alone: boolean): RunResult {
    return alone ? result : { ...result, fileErrors: result.fileErrors.filter((e) => e.file === file || e.file.endsWith('/' + file)) };
  }

  /** One invocation over `files`, read as a whole (the load-only baseline: no test is expected). */
  async invoke(files: string[], opts: RunOpts): Promise<RunResult> {
    if (this.signal?.aborted) throw new CancelledError();
    this.executions++;
    // A case id in the filter selects its test by name in whichever of the files holds it (frameworks/caseMap.ts).
    const tests = opts.grep === undefined ? [] : files.flatMap((f) => this.testsOf(f));
    const result = await this.runTests(this.plan.framework, this.workspace, files, {
      binDir: this.plan.binDir,
      args: this.plan.args,
      env: this.plan.env,
      python: this.plan.python,
      // a whole suite takes longer than one file: each file gets the per-file limit, at most ten of them
      timeoutMs: this.timeoutMs * Math.min(Math.max(files.length, 1), 10),
      signal: this.signal,
      onSpawn: this.onPid,
      grep: opts.grep === undefined ? undefined : namesToRun(tests, opts.grep),
      coverageOf: opts.coverageOf,
      ...(opts.perTest ? { perTest: true } : {}),
    });
    if (result.cancelled) throw new CancelledError();
    return result;
  }

  /** What a run of several files says of one of them: its tests' observations, or undefined when it says nothing of the file. */
  private attributed(
    result: RunResult,
    file: string,
    caseIds: string[],
    owners?: Map<TestOutcome, string>,
  ): Map<string, Observation> | undefined {
    const byCase = this.resultsByCase(result, file, owners);
    const found = caseIds.some((id) => byCase.has(id));
    const ownError = result.fileErrors.some((e) => e.file === file || e.file.endsWith('/' + file));
    if (!found && !ownError) return undefined;
    return this.observe(
      { ...result, fileErrors: result.fileErrors.filter((e) => e.file === file || e.file.endsWith('/' + file)) },
      file,
      caseIds,
      byCase,
    );
  }

  /** Each case id's observation in a run of `file`. */
  private observe(result: RunResult, file: string, caseIds: string[], byCase = this.resultsByCase(result, file)): Map<string, Observation> {
    const obs = new Map<string, Observation>();
    const loadError =
      result.fileErrors.find((e) => e.file === file || e.file.endsWith('/' + file)) ??
      (result.fileErrors.length ? result.fileErrors[0] : undefined);
    for (const id of caseIds) {
      if (result.timedOut) {
        obs.set(id, { status: 'timeout', message: `killed after ${Math.round(this.timeoutMs / 1000)} s (the whole process group)` });
        continue;
      }
      const ran = byCase.get(id) ?? [];
      if (!ran.length) {
        if (loadError) obs.set(id, { status: 'load_error', message: withOutput(loadError.message, result.output) });
        else if (!result.tests.length && result.exitCode !== 0)
          obs.set(id, { status: NOT_COLLECTED.test(result.output) ? 'not_collected' : 'load_error', message: tail(result.output) });
        else obs.set(id, { status: 'missing', message: `the runner's results have no test of ${id}` });
        continue;
      }
      const failed = ran.find((t) => t.status === 'failed');
      const status = failed ? 'failed' : ran.every((t) => t.status === 'skipped') ? 'skipped' : 'passed';
      obs.set(id, { status, name: ran[0].name, ...(failed?.message ? { message: failed.message } : {}), ...reportedOf(failed) });
    }
    return obs;
  }

  /** The run's results that are `file`'s tests, by case id: each result read once (per case id it was 569 × 569 reads on node-forge). */
  private resultsByCase(result: RunResult, file: string, owners?: Map<TestOutcome, string>): Map<string, RunResult['tests']> {
    const find = caseFinder([this.testsOf(file)], file.endsWith('.py'));
    const byCase = new Map<string, RunResult['tests']>();
    for (const t of result.tests) {
      const owner = owners?.get(t);
      const id = this.isOfFile(t, file) && (owner === undefined || owner === file) ? find(t.name) : undefined;
      if (!id) continue;
      const list = byCase.get(id);
      if (list) list.push(t);
      else byCase.set(id, [t]);
    }
    return byCase;
  }

  /**
   * For a run of several files whose report does not say a test's file (mocha before 6): the file of
   * each such test, the one whose test its name matches longest (frameworks/caseMap.ts). Else sha1's test file
   * would also take sha256's `… create() leaves the observed state` as its own test of that title.
   */
  private owners(result: RunResult, files: string[]): Map<TestOutcome, string> | undefined {
    const fileless = result.tests.filter((t) => !t.file);
    if (files.length < 2 || !fileless.length) return undefined;
    const tests = files.map((f) => this.testsOf(f));
    const fileOf = new Map<string, string>();
    tests.forEach((list, i) => list.forEach((t) => t.caseId && fileOf.set(t.caseId, files[i])));
    const find = caseFinder(
      tests,
      files.some((f) => f.endsWith('.py')),
    );
    const owners = new Map<TestOutcome, string>();
    for (const t of fileless) {
      const id = find(t.name);
      owners.set(t, (id && fileOf.get(id)) || '');
    }
    return owners;
  }

  /** Whether a reported test may be one of `file`'s: the runner names its file, or does not say (then its name decides). */
  private isOfFile(t: RunResult['tests'][number], file: string): boolean {
    return !t.file || t.file === file || t.file.endsWith('/' + file);
  }

  /** The file's tests as it is now (frameworks/caseMap.ts); none when it cannot be read. */
  private testsOf(file: string): FileTest[] {
    try {
      return testsInFile(file, readFileSync(join(this.workspace, file), 'utf8'));
    } catch {
      return [];
    }
  }
}

/** The names a runner's filter selects: a case id becomes its test's name in the file; other text (a name no test has) stays. */
function namesToRun(tests: FileTest[], grep: string | string[]): string[] {
  const wanted = Array.isArray(grep) ? grep : [grep];
  const names = wanted.flatMap((g) => (CASE_ID.test(g) && g.length === 15 ? namesOfCases(tests, [g]) : [g]));
  return names.length ? names : wanted;
}

/** The report's expected/actual of a failed test, both or none. */
function reportedOf(t: TestOutcome | undefined): { reported?: ReportedValues } {
  return t?.expected !== undefined && t.actual !== undefined ? { reported: { expected: t.expected, actual: t.actual } } : {};
}

/** node:test reports a file that does not load as "test failed": the error itself is in the output before it. */
function withOutput(message: string, output: string): string {
  return /Error|Cannot find module/.test(message) ? message : `${message}\n${output.slice(0, 4000)}`;
}

/** The runner's last lines, after its first error line when that scrolled off (mocha prints the stack after it). */
function tail(output: string): string {
  const lines = output
    .trim()
    .split('\n')
    .filter((l) => l.trim());
  const last = lines.slice(-12).join('\n').slice(-1500);
  // the error's own line (mocha: `Exception during run: ReferenceError: jQuery is not defined`), which a long stack pushes out of the last lines
  const first = lines.find((l) => /(?:^|\s)(?:[A-Z]\w*)?Error\b|\bCannot find module\b/.test(l));
  return (first && !last.includes(first) ? `${first.trim()}\n${last}` : last) || 'the runner reported nothing';
}
