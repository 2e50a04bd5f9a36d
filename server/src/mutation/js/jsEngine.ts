// The JavaScript/TypeScript engine (docs/mutation.md): StrykerJS's instrumenter places every mutant of
// the modules under test as a mutant schema; a sandbox copy of the workspace holds the instrumented
// modules and, in place of each test file, its mutant driver (driver.ts); AMTP's own runner for the
// project's framework (frameworks/runner.ts, with its structured report) runs the drivers:
// - one coverage round: which mutants each test reaches (StrykerJS's per-test mutant coverage);
// - mutant rounds in a few batches, each ONE runner invocation over all test files, switching its
//   mutants one after another with only the tests that reach each (../schedule.ts);
// - static mutants (reached while modules load) one invocation each, as the budget allows.
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CancelledError } from '../../core/errors';
import { caseReader, testsInFile, type FileTest } from '../../frameworks/caseMap';
import { runTests as realRunTests, type RunResult, type TestOutcome as RunnerTest } from '../../frameworks/runner';
import { mutantResults } from '../outcome';
import { mergeCoverage, planMutants, readCoverage, widenStatics, type CoverageRound, type PlannedMutant } from '../rounds';
import { schedule, type BatchRun, type ScheduleResult, type TestOutcome } from '../schedule';
import { stallLimit, watchStalls } from '../stall';
import { mutationCache, type Known } from '../cache';
import { mutantKey, type Mutant, type MutantResult, type MutationOutcome, type MutationRequest } from '../types';
import { FRAMEWORK_REGISTRY } from '../../frameworks/registry';
import { driverFile, labelOf, MUTANT_LABEL, type DriverRound } from './driver';
import { instrumentJs } from './instrument';
import { createSandbox, type Sandbox } from './sandbox';

const STRYKER_TOOL = 'StrykerJS instrumenter 9.6.1 (mutant schemata), run by AMTP';

interface JsRun {
  req: MutationRequest;
  sandbox: Sandbox;
  /** the sandbox's real path (require.cache keys are real paths) */
  root: string;
  /** test files whose rounds can load the modules anew (CommonJS) */
  freshFiles: Set<string>;
  /** test file → the case ids of its tests that are run against mutants */
  testsOf: Map<string, string[]>;
  /** test file → its original text */
  texts: Map<string, string>;
  /** test file → its tests (frameworks/caseMap.ts): how a reported name maps to its case */
  fileTests: Map<string, FileTest[]>;
  /** fileTests read for reported names (caseOf) */
  read?: (resultName: string, file?: string) => string | undefined;
  executions: number;
}

export async function mutateJs(req: MutationRequest): Promise<MutationOutcome> {
  const started = Date.now();
  const sources = new Map<string, string>();
  for (const t of req.targets) if (existsSync(join(req.workspace, t))) sources.set(t, readFileSync(join(req.workspace, t), 'utf8'));
  const log = (m: string) => req.info?.(`mutation: ${m} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  const ins = await instrumentJs(sources, req.signal);
  log(`instrumented ${ins.files.size} file(s), ${ins.mutants.length} mutant(s)`);
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
    log(`sandbox of ${sandbox.files} file(s)`);
    const run: JsRun = {
      req,
      sandbox,
      root: realpathSync(sandbox.root),
      freshFiles: new Set(),
      testsOf: new Map(),
      texts: new Map(),
      fileTests: new Map(),
      executions: 0,
    };
    const cov = await coverageRound(run, outcome);
    log(`coverage round: ${cov.usable.size} test(s) usable, ${cov.staticIds.size} static mutant(s)`);
    outcome.mutants = await mutantRounds(run, ins.mutants, cov, started, log);
    outcome.executions = run.executions;
  } finally {
    sandbox.remove();
  }
  outcome.elapsedMs = Date.now() - started;
  return outcome;
}

/**
 * Every wanted mutant's result: those the cache knows (../cache.ts), the rest run within the budget
 * (only against the tests new to them where the cache knows the others); what ran is cached.
 */
async function mutantRounds(
  run: JsRun,
  mutants: (Mutant & { filtered?: string })[],
  cov: CoverageRound,
  started: number,
  log: (m: string) => void,
): Promise<MutantResult[]> {
  const { req } = run;
  const wanted = mutants.filter((m) => !req.only || req.only.has(mutantKey(m)));
  const { planned: all, noCoverage } = planMutants(
    wanted.filter((m) => !m.filtered).map((m) => m.id),
    cov,
  );
  widenStatics(all, cov);
  const reach = new Map(all.map((p) => [p.id, p.tests]));
  const cache = mutationCache(req, STRYKER_TOOL, run.texts);
  const known =
    cache?.known(
      wanted.filter((m) => !m.filtered),
      reach,
    ) ?? new Map<string, Known>();
  const planned = leftToRun(all, known);
  const fromCache = [...known.values()].filter((k) => k.result).length;
  if (known.size) log(`${fromCache} mutant(s) known from earlier runs; ${known.size - fromCache} run only against the tests new to them`);
  inProcessStatics(run, planned);
  const sched = await schedule(backend(run), planned, {
    deadline: started + req.budgetMs,
    startupMs: Math.max(200, cov.wallMs - [...cov.ms.values()].reduce((a, b) => a + b, 0)),
    // the framework's first guess (its descriptor), corrected after each batch
    perTestMs: FRAMEWORK_REGISTRY[req.plan.framework].mutation?.perTestMs ?? 3,
    invocationTimeoutMs: req.timeoutMs,
    info: req.info,
  });
  log(`${sched.invocations} mutant invocation(s)`);
  // a mutant run only against its new tests is still covered by all the tests that reach it
  const ran = new Map(
    mutantResults(
      wanted.filter((m) => !known.get(m.id)?.result),
      planned,
      noCoverage,
      sched,
    ).map((r) => [r.id, known.has(r.id) ? { ...r, coveredBy: reach.get(r.id) ?? r.coveredBy } : r]),
  );
  cache?.write(
    wanted.filter((m) => !m.filtered),
    testOutcomes(known, planned, sched),
    notRunReasons(known, ran),
  );
  const statics = new Set(all.filter((p) => p.static).map((p) => p.id));
  return wanted.map((m) => {
    const r = ran.get(m.id) ?? known.get(m.id)!.result!;
    return statics.has(m.id) ? { ...r, static: true } : r;
  });
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
    if (d.fresh) run.freshFiles.add(file);
    sandbox.write(file, d.text);
    run.texts.set(file, text);
    run.fileTests.set(file, testsInFile(file, text));
    run.testsOf.set(file, ids);
    outs.push(out);
  }
  const t0 = Date.now();
  const result = run.testsOf.size ? await invoke(run, [...run.testsOf.keys()], {}, req.timeoutMs) : undefined;
  const wallMs = Date.now() - t0;
  const cov = mergeCoverage(outs.filter(existsSync).map((f) => readCoverage(JSON.parse(readFileSync(f, 'utf8')))));
  const passed = new Set((result?.tests ?? []).filter((t) => t.status === 'passed').map((t) => caseOf(run, t)));
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

/** The planned mutants the cache does not answer, each with only the tests whose outcome it does not know. */
function leftToRun(all: PlannedMutant[], known: Map<string, Known>): PlannedMutant[] {
  return all
    .filter((p) => !known.get(p.id)?.result)
    .map((p) => {
      const tests = known.get(p.id)?.tests;
      return tests ? { ...p, tests, costMs: (p.costMs * tests.length) / Math.max(1, p.tests.length) } : p;
    });
}

/** Each mutant's outcome per test: those the cache knew and those this run found (a hung mutant timed out every test it ran). */
function testOutcomes(known: Map<string, Known>, planned: PlannedMutant[], sched: ScheduleResult): Map<string, Map<string, TestOutcome>> {
  const out = new Map<string, Map<string, TestOutcome>>([...known].map(([id, k]) => [id, new Map(k.outcomes)]));
  const of = (id: string) => out.get(id) ?? out.set(id, new Map()).get(id)!;
  for (const r of sched.results) of(r.mutant).set(r.test, r.outcome);
  const hung = new Set(sched.hung);
  for (const p of planned) if (hung.has(p.id)) for (const t of p.tests) of(p.id).set(t, 'timeout');
  return out;
}

/** The mutants the budget left not run, with their run's reason. */
function notRunReasons(known: Map<string, Known>, ran: Map<string, MutantResult>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [id, k] of known) if (k.notRun) out.set(id, k.notRun);
  for (const [id, r] of ran) if (r.status === 'not_run') out.set(id, r.reason ?? 'not run');
  return out;
}

/** Cost of loading the modules under test again for a fresh round (a first guess). */
const FRESH_ROUND_MS = 30;

/** A static mutant whose tests all sit in CommonJS files runs in process, its round loading the modules anew. */
function inProcessStatics(run: JsRun, planned: PlannedMutant[]): void {
  const fileOf = new Map<string, string>();
  for (const [file, ids] of run.testsOf) for (const id of ids) fileOf.set(id, file);
  for (const p of planned.filter((x) => x.static)) {
    const files = new Set(p.tests.map((t) => fileOf.get(t)));
    if (!p.tests.length || [...files].some((f) => !f || !run.freshFiles.has(f))) continue;
    p.fresh = true;
    p.costMs += FRESH_ROUND_MS * files.size;
  }
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
  const isStatic = batch.length === 1 && batch[0].static && !batch[0].fresh;
  for (const [file, ids] of run.testsOf) {
    const rounds: DriverRound[] = [];
    for (const m of batch) {
      const tests = m.tests.filter((t) => ids.includes(t));
      if (!tests.length) continue;
      // A static mutant is on for the whole process (the env): its round is a plain run of its tests.
      const round = {
        mutant: m.id,
        tests,
        label: labelOf(m.id),
        hitLimit: m.hitLimit,
        timeoutMs: m.timeoutMs,
        ...(m.fresh ? { fresh: true } : {}),
      };
      rounds.push(isStatic ? { mutant: null, tests } : round);
    }
    if (!rounds.length) continue;
    const d = driverFile(file, run.texts.get(file)!, run.req.plan.framework, {
      rounds,
      progress: progressPrefix(run),
      finished: finishedPrefix(run),
      root: run.root,
    });
    if ('cannot' in d) continue;
    run.sandbox.write(file, d.text);
    files.push(file);
  }
  const t0 = Date.now();
  if (!files.length) return { results: [], timedOut: false, elapsedMs: 0 };
  clearProgress(run);
  const watch = watchStalls(() => readProgress(run), stallLimit(batch), run.req.signal);
  try {
    const result = await invoke(run, files, env, timeoutMs, watch.signal);
    const stalled = watch.stalled();
    const killed = result.timedOut || stalled.length > 0;
    const hung = stalled.length ? stalled : result.timedOut ? readProgress(run).map((p) => p.split('\n')[0]) : [];
    const results = isStatic
      ? [...outcomes(run, result, batch[0].id), ...loadFailures(run, result, batch[0])]
      : outcomes(run, result, undefined);
    // Killed before its runner reported: the tests that ended are in the runtime's log.
    if (killed) results.push(...finishedTests(run, results));
    return { results, timedOut: killed, hung, stalled: stalled.length > 0, elapsedMs: Date.now() - t0 };
  } finally {
    watch.stop();
  }
}

const progressPrefix = (run: JsRun) => join(run.sandbox.root, '.amtp-mutation', 'progress');
const finishedPrefix = (run: JsRun) => join(run.sandbox.root, '.amtp-mutation', 'finished');

function clearProgress(run: JsRun): void {
  const dir = dirname(progressPrefix(run));
  for (const f of readdirSync(dir)) if (f.startsWith('progress-') || f.startsWith('finished-')) rmSync(join(dir, f), { force: true });
}

const FINISHED: Record<string, TestOutcome> = { passed: 'survived', failed: 'killed', timeout: 'timeout' };

/** The tests the runtime logged as ended ("mutant\tcase id\toutcome" lines) that `known` does not hold. */
function finishedTests(run: JsRun, known: BatchRun['results']): BatchRun['results'] {
  const dir = dirname(finishedPrefix(run));
  const seen = new Set(known.map((r) => `${r.mutant}\t${r.test}`));
  const out: BatchRun['results'] = [];
  for (const f of readdirSync(dir).filter((x) => x.startsWith('finished-')))
    for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) {
      const [mutant, test, ended] = line.split('\t');
      const outcome = FINISHED[ended];
      if (!outcome || seen.has(`${mutant}\t${test}`)) continue;
      seen.add(`${mutant}\t${test}`);
      out.push({ mutant, test, outcome });
    }
  return out;
}

/** What each runner process runs now ("mutant\ntest"; '' between tests), from its progress file. */
function readProgress(run: JsRun): string[] {
  const dir = dirname(progressPrefix(run));
  return readdirSync(dir)
    .filter((f) => f.startsWith('progress-'))
    .map((f) => {
      try {
        return readFileSync(join(dir, f), 'utf8');
      } catch {
        return '';
      }
    })
    .filter((m) => m !== '');
}

/** One runner invocation in the sandbox; `signal` may stop it for a stall (then it is not a cancellation). */
async function invoke(
  run: JsRun,
  files: string[],
  env: Record<string, string>,
  timeoutMs: number,
  signal = run.req.signal,
): Promise<RunResult> {
  const { req } = run;
  run.executions++;
  const result = await (req.runTests ?? realRunTests)(req.plan.framework, run.sandbox.root, files, {
    binDir: req.plan.binDir,
    args: req.plan.args,
    env: { ...req.plan.env, ...env },
    timeoutMs,
    signal,
    onSpawn: req.onSpawn,
  });
  if (result.cancelled && (req.signal?.aborted || signal === req.signal)) throw new CancelledError();
  return result;
}

/** A static mutant's process whose test files do not even load: each of their tests kills it. */
function loadFailures(run: JsRun, result: RunResult, m: PlannedMutant): BatchRun['results'] {
  const failed = new Set(result.fileErrors.map((e) => e.file));
  const out: BatchRun['results'] = [];
  for (const [file, ids] of run.testsOf)
    if (failed.has(file) || (!result.tests.length && result.exitCode !== 0 && !result.timedOut))
      for (const test of m.tests.filter((t) => ids.includes(t))) out.push({ mutant: m.id, test, outcome: 'killed' });
  return out;
}

/** The case of a test the runner reported: in the file it names, else in any driven file. */
function caseOf(run: JsRun, t: RunnerTest): string | undefined {
  // the driven files are known once the coverage round has run: their tests are indexed once
  run.read ??= caseReader(run.fileTests, false);
  return run.read(t.name, t.file);
}

/** The runner's report, per mutant (from the round's label, or the static mutant) and case id. */
function outcomes(run: JsRun, result: RunResult, staticMutant: string | undefined): BatchRun['results'] {
  const out: BatchRun['results'] = [];
  for (const t of result.tests) {
    const mutant = staticMutant ?? MUTANT_LABEL.exec(t.name)?.[1];
    const test = caseOf(run, t);
    if (!mutant || !test || t.status === 'skipped') continue;
    const timedOut = /timed out|hit its limit|Hit count limit/i.test(t.message ?? '');
    const outcome: TestOutcome = t.status === 'passed' ? 'survived' : timedOut ? 'timeout' : 'killed';
    out.push({ mutant, test, outcome });
  }
  return out;
}
