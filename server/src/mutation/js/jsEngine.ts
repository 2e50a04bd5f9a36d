// The JavaScript/TypeScript engine (docs/mutation.md): StrykerJS's instrumenter places every mutant of
// the modules under test as a mutant schema; a sandbox copy of the workspace holds the instrumented
// modules and, in place of each test file, its mutant driver (driver.ts); AMTP's own runner for the
// project's framework (frameworks/runner.ts, with its structured report) runs the drivers:
// - one coverage round: which mutants each test reaches (StrykerJS's per-test mutant coverage);
// - mutant rounds in a few batches, each ONE runner invocation over all test files, switching its
//   mutants one after another with only the tests that reach each (schedule.ts);
// - static mutants (reached while modules load) one invocation each, as the budget allows.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CancelledError } from '../../core/errors';
import { runTests as realRunTests, type RunResult } from '../../frameworks/runner';
import { mutantResults } from '../outcome';
import { mergeCoverage, planMutants, readCoverage, widenStatics, type CoverageRound, type PlannedMutant } from '../rounds';
import { schedule, type BatchRun, type TestOutcome } from '../schedule';
import type { MutationOutcome, MutationRequest } from '../types';
import { driverFile, labelOf, MUTANT_LABEL, type DriverRound } from './driver';
import { instrumentJs } from './instrument';
import { createSandbox, type Sandbox } from './sandbox';

const CASE_ID = /tc_[0-9a-f]{12}/;
export const STRYKER_TOOL = 'StrykerJS instrumenter 9.6.1 (mutant schemata), run by AMTP';
/** First guess of one test run's cost beyond its own time, per framework (corrected after each batch). */
const PER_TEST_MS: Record<string, number> = { mocha: 1, jest: 3, vitest: 2, 'node-test': 3, ava: 3, 'node-tap': 10 };

interface JsRun {
  req: MutationRequest;
  sandbox: Sandbox;
  /** test file → the case ids of its tests that are run against mutants */
  testsOf: Map<string, string[]>;
  /** test file → its original text */
  texts: Map<string, string>;
  executions: number;
}

export async function mutateJs(req: MutationRequest): Promise<MutationOutcome> {
  const started = Date.now();
  const sources = new Map<string, string>();
  for (const t of req.targets) if (existsSync(join(req.workspace, t))) sources.set(t, readFileSync(join(req.workspace, t), 'utf8'));
  const ins = await instrumentJs(sources, req.signal);
  const outcome: MutationOutcome = {
    tool: STRYKER_TOOL,
    mutants: [],
    files: [...ins.files.keys()],
    failedFiles: ins.failed,
    excludedTests: [],
    executions: 0,
    elapsedMs: 0,
    budgetMs: req.budgetMs,
  };
  const sandbox = createSandbox(req.workspace);
  try {
    for (const [rel, text] of ins.files) sandbox.write(rel, text);
    const run: JsRun = { req, sandbox, testsOf: new Map(), texts: new Map(), executions: 0 };
    const cov = await coverageRound(run, outcome);
    const placed = ins.mutants.filter((m) => !m.filtered).map((m) => m.id);
    const { planned, noCoverage } = planMutants(placed, cov);
    widenStatics(planned, new Map(ins.mutants.map((m) => [m.id, m.file])), req.tests, cov.usable);
    const sched = await schedule(backend(run), planned, {
      deadline: started + req.budgetMs,
      startupMs: Math.max(200, cov.wallMs - [...cov.ms.values()].reduce((a, b) => a + b, 0)),
      perTestMs: PER_TEST_MS[req.plan.framework] ?? 3,
      invocationTimeoutMs: req.timeoutMs,
    });
    outcome.mutants = mutantResults(ins.mutants, planned, noCoverage, sched);
    outcome.executions = run.executions;
  } finally {
    sandbox.remove();
  }
  outcome.elapsedMs = Date.now() - started;
  return outcome;
}

/** Runs every test file's driver once with no mutant: which mutants each test reaches, and which tests can be driven. */
async function coverageRound(run: JsRun, outcome: MutationOutcome): Promise<CoverageRound> {
  const { req, sandbox } = run;
  const byFile = new Map<string, string[]>();
  for (const t of req.tests) byFile.set(t.file, [...(byFile.get(t.file) ?? []), t.caseId]);
  const outs: string[] = [];
  mkdirSync(join(sandbox.root, '.amtp-mutation'), { recursive: true });
  for (const [file, ids] of byFile) {
    const text = readFileSync(join(req.workspace, file), 'utf8');
    const out = join(sandbox.root, '.amtp-mutation', `cov-${outs.length}.json`);
    const d = driverFile(file, text, req.plan.framework, { rounds: [{ mutant: null, tests: ids }], out });
    if ('cannot' in d) {
      for (const id of ids) outcome.excludedTests.push({ caseId: id, reason: `its file cannot be driven: ${d.cannot}` });
      continue;
    }
    sandbox.write(file, d.text);
    run.texts.set(file, text);
    run.testsOf.set(file, ids);
    outs.push(out);
  }
  const t0 = Date.now();
  const result = run.testsOf.size ? await invoke(run, [...run.testsOf.keys()], {}, req.timeoutMs) : undefined;
  const wallMs = Date.now() - t0;
  const cov = mergeCoverage(outs.filter(existsSync).map((f) => readCoverage(JSON.parse(readFileSync(f, 'utf8')))));
  const passed = new Set((result?.tests ?? []).filter((t) => t.status === 'passed').map((t) => CASE_ID.exec(t.name)?.[0]));
  const usable = new Set<string>();
  for (const ids of run.testsOf.values())
    for (const id of ids) {
      if (passed.has(id) && cov.perTest.has(id)) usable.add(id);
      else if (passed.has(id))
        usable.add(id); // ran and reached no mutant: nothing to run it against
      else outcome.excludedTests.push({ caseId: id, reason: 'it did not pass in the mutation sandbox with the instrumented modules' });
    }
  return { ...cov, usable, wallMs };
}

function backend(run: JsRun) {
  return {
    runBatch: (batch: PlannedMutant[], timeoutMs: number) => runRounds(run, batch, {}, timeoutMs),
    runStatic: (m: PlannedMutant, timeoutMs: number) => runRounds(run, [m], { __STRYKER_ACTIVE_MUTANT__: m.id }, timeoutMs),
  };
}

/** One invocation: each test file's driver with the rounds of the mutants its tests reach. */
async function runRounds(run: JsRun, batch: PlannedMutant[], env: Record<string, string>, timeoutMs: number): Promise<BatchRun> {
  const files: string[] = [];
  const isStatic = batch.length === 1 && batch[0].static;
  for (const [file, ids] of run.testsOf) {
    const rounds: DriverRound[] = [];
    for (const m of batch) {
      const tests = m.tests.filter((t) => ids.includes(t));
      if (!tests.length) continue;
      // A static mutant is on for the whole process (the env): its round is a plain run of its tests.
      rounds.push(
        isStatic ? { mutant: null, tests } : { mutant: m.id, tests, label: labelOf(m.id), hitLimit: m.hitLimit, timeoutMs: m.timeoutMs },
      );
    }
    if (!rounds.length) continue;
    const d = driverFile(file, run.texts.get(file)!, run.req.plan.framework, { rounds });
    if ('cannot' in d) continue;
    run.sandbox.write(file, d.text);
    files.push(file);
  }
  const t0 = Date.now();
  if (!files.length) return { results: [], timedOut: false, elapsedMs: 0 };
  const result = await invoke(run, files, env, timeoutMs);
  return { results: outcomes(result, isStatic ? batch[0].id : undefined), timedOut: result.timedOut, elapsedMs: Date.now() - t0 };
}

async function invoke(run: JsRun, files: string[], env: Record<string, string>, timeoutMs: number): Promise<RunResult> {
  const { req } = run;
  run.executions++;
  const result = await (req.runTests ?? realRunTests)(req.plan.framework, run.sandbox.root, files, {
    binDir: req.plan.binDir,
    args: req.plan.args,
    env: { ...req.plan.env, ...env },
    timeoutMs,
    signal: req.signal,
    onSpawn: req.onSpawn,
  });
  if (result.cancelled) throw new CancelledError();
  return result;
}

/** The runner's report, per mutant (from the round's label, or the static mutant) and case id. */
function outcomes(result: RunResult, staticMutant: string | undefined): BatchRun['results'] {
  const out: BatchRun['results'] = [];
  for (const t of result.tests) {
    const mutant = staticMutant ?? MUTANT_LABEL.exec(t.name)?.[1];
    const test = CASE_ID.exec(t.name)?.[0];
    if (!mutant || !test || t.status === 'skipped') continue;
    const timedOut = /timed out|hit its limit|Hit count limit/i.test(t.message ?? '');
    const outcome: TestOutcome = t.status === 'passed' ? 'survived' : timedOut ? 'timeout' : 'killed';
    out.push({ mutant, test, outcome });
  }
  return out;
}
