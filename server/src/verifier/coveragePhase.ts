// Phase "adds coverage" (docs/verifier.md, filter 3): each stable test alone (or each file, above
// maxCoverageRuns), most important first; a test is kept only if it covers a unit no kept test covers,
// or, when mutation ran, kills a mutant no kept test kills (keepRule.ts).
// Also measures "before" (every stable test together) and keeps the denominator for "after".
import type { CoverageUnits } from '../frameworks/runner';
import type { FilterStep, VerificationRecord } from '../core/run';
import { beyondImportCandidates, loadOnlyUnits, redundant, union, type Candidate } from './coverage';
import { dropLoadOnlyExistence, existenceChecksToDrop } from './existenceChecks';
import { measuredFiles } from './productFiles';
import { keepKillers, ruleOf, type KeepUnit } from './keepRule';
import { drop, nameOf, type VerifyState } from './state';

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
  const perCase = stable.length <= ctx.params.maxCoverageRuns;
  const candidates = perCase ? await measureEachTest(s, targets, universe) : await measureEachFile(s, targets, universe);
  // measured per file, each file's candidate is its stable tests together: that run is not made twice
  const together = await measureTogether(s, targets, universe, perCase ? undefined : candidates);
  // A test is judged on what it covers beyond what loading its file covers: an existence check adds nothing.
  const files = s.files.filter((w) => stable.some((t) => t.file === w)).map((w) => w.path);
  const loaded = await loadOnlyUnits((fs, o) => s.runner.runFiles(fs, o), files, targets);
  const beyond = beyondImportCandidates(candidates, loaded);
  const gone = redundant(beyond);
  const restored = perCase ? await keepSharedState(s, targets, together, gone) : 0;
  if (perCase) dropLoadOnlyExistence(s, beyond, gone);
  // Measured per file, existence checks are judged together, one run per file (./existenceChecks.ts).
  const shapeOnly = perCase ? new Map<string, string>() : await existenceChecksToDrop(s, targets, candidates, loaded, gone);
  const killers = kills ? keepMutantKillers(s, perCase, gone, shapeOnly, kills) : 0;
  const dropIds: string[] = [];
  const dropped = (id: string, reason: string) => {
    drop(s, id, 'adds_coverage', reason);
    s.results.get(id)!.rule = ruleOf(reason, !!kills);
    dropIds.push(id);
  };
  for (const [key, reason] of gone) {
    const ids = perCase ? [key] : stable.filter((t) => t.file.path === key).map((t) => t.id);
    for (const id of ids) dropped(id, perCase ? reason : `its file ${key} ${reason}`);
  }
  for (const [id, reason] of shapeOnly) dropped(id, reason);
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

async function measureEachTest(s: VerifyState, targets: string[], universe: CoverageUnits): Promise<Candidate[]> {
  const candidates: Candidate[] = [];
  for (const [order, t] of s.stable.entries()) {
    const { obs, result } = await s.runner.run(t.file.path, [t.id], { grep: t.id, coverageOf: targets });
    for (const k of result.unitKeys ?? []) universe.add(k);
    // A test that does not pass alone depends on the others: it is kept, unmeasured (no units → it is never anyone's cover).
    if (obs.get(t.id)?.status === 'passed' && result.units)
      candidates.push({ id: t.id, priority: s.caseOf.get(t.id)?.priority ?? 'P2', order, units: result.units });
  }
  return candidates;
}

async function measureEachFile(s: VerifyState, targets: string[], universe: CoverageUnits): Promise<Candidate[]> {
  const candidates: Candidate[] = [];
  for (const [order, file] of s.files.entries()) {
    const ids = s.stable.filter((t) => t.file === file).map((t) => t.id);
    if (!ids.length) continue;
    // Only the stable tests: the failing ones still in the file would credit it with what they ran.
    const { result } = await s.runner.run(file.path, ids, { grep: ids, coverageOf: targets });
    for (const k of result.unitKeys ?? []) universe.add(k);
    const best = ids.map((id) => s.caseOf.get(id)?.priority ?? 'P2').sort()[0];
    if (result.units) candidates.push({ id: file.path, priority: best, order, units: result.units });
  }
  return candidates;
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
 * Tests measured alone miss what only shows when they share a process (module state, caches): the
 * kept tests of each file run together once more, and if they cover less than all of its stable
 * tests did, the file keeps every test this filter would have dropped. Returns how many were kept so.
 */
async function keepSharedState(
  s: VerifyState,
  targets: string[],
  together: Map<string, CoverageUnits>,
  gone: Map<string, string>,
): Promise<number> {
  let restored = 0;
  for (const file of s.files) {
    const before = together.get(file.path);
    const dropping = s.stable.filter((t) => t.file === file && gone.has(t.id)).map((t) => t.id);
    if (!before || !dropping.length) continue;
    const keep = s.stable.filter((t) => t.file === file && !gone.has(t.id)).map((t) => t.id);
    const { result } = await s.runner.run(file.path, keep, { grep: keep, coverageOf: targets });
    const lost = [...before].filter((u) => !result.units?.has(u));
    if (lost.length) {
      s.ctx.info(
        `verify: ${file.path}: its tests cover ${lost.length} more unit(s) together than alone; keeping the ${dropping.length} test(s) the coverage filter would drop`,
      );
      for (const id of dropping) gone.delete(id);
      restored += dropping.length;
    }
  }
  await s.flushPids();
  return restored;
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
