// Phase "adds coverage" (docs/verifier.md, filter 3): each stable test alone (or each file, above
// maxCoverageRuns), most important first; a test is kept only if it covers a unit no kept test covers,
// or, when mutation ran, kills a mutant no kept test kills (keepRule.ts), or is the last test of a
// function under test or of its documented behaviour (lastTests.ts).
// Also measures "before" (every stable test together) and keeps the denominator for "after".
import type { CoverageUnits } from '../frameworks/runner';
import type { FilterStep, VerificationRecord } from '../core/run';
import { beyondImportCandidates, loadOnlyUnits, redundant, union, type Candidate } from './coverage';
import { dropLoadOnlyExistence, existenceChecksToDrop } from './existenceChecks';
import { perTestOfStable, type PerTestMeasure } from './perTestRun';
import { measuredFiles } from './productFiles';
import { keepKillers, ruleOf, type KeepUnit } from './keepRule';
import { keepLastTests } from './lastTests';
import { drop, nameOf, type VerifyState } from './state';
import { pool } from '../pipeline/pool';

export interface CoverageOutcome {
  coverage: NonNullable<VerificationRecord['coverage']>;
  step: FilterStep;
  /** every unit any coverage run reported for the files under test: one denominator for before and after */
  universe: CoverageUnits;
  before?: CoverageUnits;
  /** what loading the test files covers with no test run (server/src/coverage/loadOnly.ts) */
  loaded?: CoverageUnits;
  targets: string[];
}

/** @param kills case id → the mutants it kills, when mutation ran (mutationPhase.ts) */
export async function coveragePhase(s: VerifyState, kills?: Map<string, Set<string>>): Promise<CoverageOutcome> {
  const { ctx, stable } = s;
  const coverage: CoverageOutcome['coverage'] = {};
  const universe: CoverageUnits = new Set();
  const tested = [...new Set(stable.map((t) => s.caseOf.get(t.id)?.target.file).filter((f): f is string => !!f))];
  // Measured over every product file, not only those the tests load (as nyc/c8 --all): ./productFiles.ts.
  const targets = measuredFiles(tested, ctx.productFiles ?? []);
  if (ctx.plan.noCoverage || !tested.length) {
    coverage.skipped = ctx.plan.noCoverage ?? 'no file under test is known';
    return {
      coverage,
      universe,
      targets,
      step: { step: 'adds_coverage', kept: stable.length, dropped: 0, names: [], skipped: coverage.skipped },
    };
  }
  coverage.tool = ctx.plan.framework === 'pytest' ? 'coverage.py' : 'node (v8)';
  // Each test's coverage from the run phase's one process where the runner gives it (./perTestRun.ts); else a run per test.
  const m = await perTestOfStable(s, targets);
  const perCase = !!m || stable.length <= ctx.params.maxCoverageRuns;
  const measured = m ? fromPerTest(s, m, universe) : await measureApart(s, targets, universe, perCase);
  const { candidates, together, loaded } = measured;
  // The tests the person accepted stay whatever this filter says (./acceptedTests.ts): they are the first covers.
  const beyond = beyondImportCandidates(candidates, loaded).map((c) => (s.accepted.has(c.id) ? { ...c, priority: '' } : c));
  const gone = redundant(beyond);
  const restored = perCase ? await keepSharedState(s, targets, measured, gone, !!m) : 0;
  if (perCase) dropLoadOnlyExistence(s, beyond, gone);
  // Measured per file, existence checks are judged together, one run per file (./existenceChecks.ts).
  const shapeOnly = perCase ? new Map<string, string>() : await existenceChecksToDrop(s, targets, candidates, loaded, gone);
  const killers = kills ? keepMutantKillers(s, perCase, gone, shapeOnly, kills) : 0;
  // A function the run was asked to test keeps its last test, and its documented behaviour one (./lastTests.ts).
  keepLastTests(s, perCase, gone, shapeOnly);
  const dropIds: string[] = [];
  const dropped = (id: string, reason: string) => {
    drop(s, id, 'adds_coverage', reason);
    s.results.get(id)!.rule = ruleOf(reason, !!kills);
    dropIds.push(id);
  };
  for (const [key, reason] of gone) {
    const ids = perCase ? [key] : stable.filter((t) => t.file.path === key).map((t) => t.id);
    for (const id of ids) if (!s.accepted.has(id)) dropped(id, perCase ? reason : `its file ${key} ${reason}`);
  }
  for (const [id, reason] of shapeOnly) if (!s.accepted.has(id)) dropped(id, reason);
  const step: FilterStep = {
    step: 'adds_coverage',
    kept: stable.length - dropIds.length,
    dropped: dropIds.length,
    names: dropIds.map((id) => nameOf(s, id)),
  };
  if (!perCase) step.skipped = `more than ${ctx.params.maxCoverageRuns} tests: contribution measured per file`;
  if (restored) step.skipped = `${restored} test(s) kept: their file covers more with them than without (shared state)`;
  step.rule = kills ? 'unique_coverage_or_kill' : 'unique_coverage';
  if (killers) s.ctx.info(`verify: ${killers} test(s) that add no coverage are kept: each kills a mutant no other kept test kills`);
  return { coverage, step, universe, before: union(together.values()), loaded, targets };
}

/** Runs measured alone at a time: the reference machine has two cores, and each run is one process. */
const MEASURE_WIDTH = 2;

interface Measured {
  candidates: Candidate[];
  /** each file's stable tests together (with what loading covers): "before", and the shared-state check */
  together: Map<string, CoverageUnits>;
  /** what loading the test files covers, no test run: a test is judged beyond it (an existence check adds nothing) */
  loaded: CoverageUnits;
}

/** From the per-test coverage of one process: no run. */
function fromPerTest(s: VerifyState, m: PerTestMeasure, universe: CoverageUnits): Measured {
  for (const k of m.unitKeys) universe.add(k);
  const priority = (id: string) => s.caseOf.get(id)?.priority ?? 'P2';
  // A test measured in no per-test run is no candidate: kept, and never anyone's cover.
  const candidates = s.stable
    .map((t, order) => ({ id: t.id, priority: priority(t.id), order, units: m.byTest.get(t.id) ?? new Set<string>() }))
    .filter((c) => m.ids.has(c.id));
  const together = new Map<string, CoverageUnits>();
  for (const t of s.stable) {
    const units = together.get(t.file.path) ?? together.set(t.file.path, new Set(m.load)).get(t.file.path)!;
    for (const u of m.byTest.get(t.id) ?? []) units.add(u);
  }
  return { candidates, together, loaded: m.load };
}

/** Each test (or each file) run alone with coverage, each file's stable tests together, and one load-only run of all files. */
async function measureApart(s: VerifyState, targets: string[], universe: CoverageUnits, perCase: boolean): Promise<Measured> {
  const candidates = perCase ? await measureEachTest(s, targets, universe) : await measureEachFile(s, targets, universe);
  // measured per file, each file's candidate is its stable tests together: that run is not made twice
  const together = await measureTogether(s, targets, universe, perCase ? undefined : candidates);
  const files = s.files.filter((w) => s.stable.some((t) => t.file === w)).map((w) => w.path);
  const loaded = await loadOnlyUnits((fs, o) => s.runner.runFiles(fs, o), files, targets);
  await s.flushPids();
  return { candidates, together, loaded };
}

async function measureEachTest(s: VerifyState, targets: string[], universe: CoverageUnits): Promise<Candidate[]> {
  const candidates: Candidate[] = [];
  await pool([...s.stable.entries()], MEASURE_WIDTH, async ([order, t]) => {
    const { obs, result } = await s.runner.run(t.file.path, [t.id], { grep: t.id, coverageOf: targets });
    for (const k of result.unitKeys ?? []) universe.add(k);
    // A test that does not pass alone depends on the others: it is kept, unmeasured (no units → it is never anyone's cover).
    if (obs.get(t.id)?.status === 'passed' && result.units)
      candidates.push({ id: t.id, priority: s.caseOf.get(t.id)?.priority ?? 'P2', order, units: result.units });
  });
  return candidates.sort((a, b) => a.order - b.order);
}

async function measureEachFile(s: VerifyState, targets: string[], universe: CoverageUnits): Promise<Candidate[]> {
  const candidates: Candidate[] = [];
  await pool([...s.files.entries()], MEASURE_WIDTH, async ([order, file]) => {
    const ids = s.stable.filter((t) => t.file === file).map((t) => t.id);
    if (!ids.length) return;
    // Only the stable tests: the failing ones still in the file would credit it with what they ran.
    const { result } = await s.runner.run(file.path, ids, { grep: ids, coverageOf: targets });
    for (const k of result.unitKeys ?? []) universe.add(k);
    const best = ids.map((id) => s.caseOf.get(id)?.priority ?? 'P2').sort()[0];
    if (result.units) candidates.push({ id: file.path, priority: best, order, units: result.units });
  });
  return candidates.sort((a, b) => a.order - b.order);
}

/** "before": every stable test of each file together, as the suite would have been without this filter. */
async function measureTogether(
  s: VerifyState,
  targets: string[],
  universe: CoverageUnits,
  perFile?: Candidate[],
): Promise<Map<string, CoverageUnits>> {
  const together = new Map<string, CoverageUnits>();
  const withFailing: { path: string; ids: string[] }[] = [];
  for (const file of s.files) {
    const ids = s.stable.filter((t) => t.file === file).map((t) => t.id);
    if (!ids.length) continue;
    const measured = perFile?.find((c) => c.id === file.path);
    if (measured) together.set(file.path, measured.units);
    else {
      // Only the stable tests (the failing ones are still in the file until the rewrite phase).
      const { result } = await s.runner.run(file.path, ids, { grep: ids, coverageOf: targets });
      if (result.units) together.set(file.path, result.units);
      for (const k of result.unitKeys ?? []) universe.add(k);
    }
    if (file.ids.some((id) => !ids.includes(id))) withFailing.push({ path: file.path, ids: file.ids });
  }
  // V8 reports the branches of a function only once it ran: the code the failing tests reach (a
  // quarantined possible bug) stays in the denominator through one run of those files (together).
  for (const k of await unitsOfRun(s, withFailing, targets)) universe.add(k);
  await s.flushPids();
  return together;
}

/** Every unit key a run of `files` (all their tests) reports: in one process, else file by file. */
async function unitsOfRun(s: VerifyState, files: { path: string; ids: string[] }[], targets: string[]): Promise<CoverageUnits> {
  const keys: CoverageUnits = new Set();
  if (!files.length) return keys;
  if (files.length > 1) {
    const { result } = await s.runner.runFiles(files, { coverageOf: targets });
    if (!result.timedOut && !result.fileErrors.length && result.unitKeys) return result.unitKeys;
  }
  for (const f of files) for (const k of (await s.runner.run(f.path, f.ids, { coverageOf: targets })).result.unitKeys ?? []) keys.add(k);
  return keys;
}

/**
 * Tests measured alone (or apart from the tests this filter drops) miss what only shows when they
 * share a process (module state, caches). Measured per test in one process (`perTest`), the kept
 * tests of all files run together once more (one invocation): a unit all stable tests covered that
 * they no longer cover brings back the dropped tests that covered it. Otherwise the kept tests of
 * each file run together, and if they cover less than all of its stable tests did, the file keeps
 * every test this filter would have dropped. Returns how many were kept so.
 */
async function keepSharedState(
  s: VerifyState,
  targets: string[],
  measured: Measured,
  gone: Map<string, string>,
  perTest: boolean,
): Promise<number> {
  const restore = perTest ? await lostTogether(s, targets, measured, gone) : await lostPerFile(s, targets, measured, gone);
  for (const id of restore) gone.delete(id);
  await s.flushPids();
  return restore.length;
}

async function lostTogether(
  s: VerifyState,
  targets: string[],
  { candidates, loaded }: Measured,
  gone: Map<string, string>,
): Promise<string[]> {
  const dropping = s.stable.filter((t) => gone.has(t.id));
  const keep = s.stable.filter((t) => !gone.has(t.id));
  if (!dropping.length || !keep.length) return [];
  const files = [...new Set(keep.map((t) => t.file.path))];
  // What the kept tests cover together is one plain coverage run: no test's own share is needed here,
  // and a take at every test boundary costs about a millisecond each.
  const result = await s.runner.invoke(files, { grep: keep.map((t) => t.id), coverageOf: targets });
  const after = result.units ?? new Set<string>();
  const unitsOf = new Map(candidates.map((c) => [c.id, c.units]));
  const lost = new Set([...unitsOf.values()].flatMap((u) => [...u]).filter((u) => !loaded.has(u) && !after.has(u)));
  const back = dropping.filter((t) => !result.units || [...(unitsOf.get(t.id) ?? [])].some((u) => lost.has(u))).map((t) => t.id);
  if (back.length)
    s.ctx.info(
      `verify: the kept tests together cover ${lost.size} unit(s) fewer than all tests did; keeping the ${back.length} test(s) the coverage filter would drop that covered them`,
    );
  return back;
}

async function lostPerFile(
  s: VerifyState,
  targets: string[],
  { together, loaded }: Measured,
  gone: Map<string, string>,
): Promise<string[]> {
  const back: string[] = [];
  for (const file of s.files) {
    const before = together.get(file.path);
    const dropping = s.stable.filter((t) => t.file === file && gone.has(t.id)).map((t) => t.id);
    if (!before || !dropping.length) continue;
    const keep = s.stable.filter((t) => t.file === file && !gone.has(t.id)).map((t) => t.id);
    const { result } = await s.runner.run(file.path, keep, { grep: keep, coverageOf: targets });
    const lost = [...before].filter((u) => !loaded.has(u) && !result.units?.has(u));
    if (lost.length) {
      s.ctx.info(
        `verify: ${file.path}: its tests cover ${lost.length} more unit(s) together than alone; keeping the ${dropping.length} test(s) the coverage filter would drop`,
      );
      back.push(...dropping);
    }
  }
  return back;
}

/** The keep rule with mutation: what the coverage filter would drop stays when it kills a mutant no kept test kills (keepRule.ts). */
function keepMutantKillers(
  s: VerifyState,
  perCase: boolean,
  gone: Map<string, string>,
  shapeOnly: Map<string, string>,
  kills: Map<string, Set<string>>,
): number {
  const priority = (id: string) => s.caseOf.get(id)?.priority ?? 'P2';
  const tests: KeepUnit[] = s.stable.map((t, order) => ({ key: t.id, priority: priority(t.id), order, tests: [t.id] }));
  if (perCase) return keepKillers(tests, gone, kills).length;
  const files: KeepUnit[] = s.files.map((f, order) => {
    const ids = s.stable.filter((t) => t.file === f).map((t) => t.id);
    return { key: f.path, priority: ids.map(priority).sort()[0] ?? 'P3', order, tests: ids };
  });
  const fromFiles = keepKillers(
    files.filter((f) => f.tests.length),
    gone,
    kills,
  );
  const fromChecks = keepKillers(
    tests.filter((t) => !gone.has(s.stable[t.order].file.path)),
    shapeOnly,
    kills,
  );
  return fromFiles.reduce((n, f) => n + files.find((x) => x.key === f)!.tests.length, 0) + fromChecks.length;
}
