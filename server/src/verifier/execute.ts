import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CASE_ID, caseOfResult, namesOfCases, testsInFile, type FileTest } from '../frameworks/caseMap';
import { runTests as realRunTests, type RunResult } from '../frameworks/runner';

type RunTests = typeof realRunTests;
import { CancelledError } from '../core/errors';
import type { RunPlan } from './runPlan';

export type ObservedStatus = 'passed' | 'failed' | 'skipped' | 'missing' | 'load_error' | 'not_collected' | 'timeout';

/** What jest and vitest say when the file they were given is outside their roots or patterns: they never looked at it. */
const NOT_COLLECTED = /\bNo tests found, exiting with code|\bNo test files? found\b|\d+ files? checked\.[\s\S]*testMatch/;

export interface Observation {
  status: ObservedStatus;
  name?: string;
  message?: string;
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

  async run(
    file: string,
    caseIds: string[],
    opts: { grep?: string | string[]; coverageOf?: string[] } = {},
  ): Promise<{ obs: Map<string, Observation>; result: RunResult }> {
    if (this.signal?.aborted) throw new CancelledError();
    this.executions++;
    const tests = this.testsOf(file);
    const result = await this.runTests(this.plan.framework, this.workspace, [file], {
      binDir: this.plan.binDir,
      args: this.plan.args,
      env: this.plan.env,
      python: this.plan.python,
      timeoutMs: this.timeoutMs,
      signal: this.signal,
      onSpawn: this.onPid,
      grep: opts.grep === undefined ? undefined : namesToRun(tests, opts.grep),
      coverageOf: opts.coverageOf,
    });
    if (result.cancelled) throw new CancelledError();
    const obs = new Map<string, Observation>();
    const loadError =
      result.fileErrors.find((e) => e.file === file || e.file.endsWith('/' + file)) ??
      (result.fileErrors.length ? result.fileErrors[0] : undefined);
    for (const id of caseIds) {
      if (result.timedOut) {
        obs.set(id, { status: 'timeout', message: `killed after ${Math.round(this.timeoutMs / 1000)} s (the whole process group)` });
        continue;
      }
      const python = file.endsWith('.py');
      const ran = result.tests.filter((t) => caseOfResult(tests, t.name, python) === id);
      if (!ran.length) {
        if (loadError) obs.set(id, { status: 'load_error', message: withOutput(loadError.message, result.output) });
        else if (!result.tests.length && result.exitCode !== 0)
          obs.set(id, { status: NOT_COLLECTED.test(result.output) ? 'not_collected' : 'load_error', message: tail(result.output) });
        else obs.set(id, { status: 'missing', message: `the runner's results have no test of ${id}` });
        continue;
      }
      const failed = ran.find((t) => t.status === 'failed');
      const status = failed ? 'failed' : ran.every((t) => t.status === 'skipped') ? 'skipped' : 'passed';
      obs.set(id, { status, name: ran[0].name, ...(failed?.message ? { message: failed.message } : {}) });
    }
    return { obs, result };
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
  const first = lines.find((l) => /\b(?:Error|Cannot find module)\b/.test(l));
  return (first && !last.includes(first) ? `${first.trim()}\n${last}` : last) || 'the runner reported nothing';
}
