// Per-test coverage from one process (docs/verifier.md, "Per-test coverage in one process"): where
// the runner allows (frameworks/runner.ts perTestSupported), the run phase's first run of all files
// also takes each test's coverage and what loading the files covers (server/src/coverage/perTest.ts).
// The adds-coverage phase then judges every test, existence checks included, from that one run; only
// tests measured in no such run (a repaired test, a file changed since) get one more run, all of them
// together. Runners that cannot give it keep the per-test runs (coveragePhase.ts).
import type { CoverageUnits, RunResult } from '../frameworks/runner';
import { perTestSupported } from '../frameworks/runner';
import { caseReader, testsInFile } from '../frameworks/caseMap';
import { testTexts } from '../frameworks/testTexts';
import type { Observation, RunOpts } from './execute';
import { unitFile } from '../coverage/units';
import { measuredFiles } from './productFiles';
import type { VerifyState } from './state';

/** What one process measured: per test (case id), loading, every unit's key, and the text each test's measure depends on then (frameworks/testTexts.ts). */
export interface PerTestMeasure {
  ids: Set<string>;
  byTest: Map<string, CoverageUnits>;
  load: CoverageUnits;
  unitKeys: CoverageUnits;
  texts: Map<string, string>;
}

/** The first run's options when the runner gives per-test coverage: measured over every file any written test targets. */
export function perTestOptions(s: VerifyState): (RunOpts & { coverageOf: string[] }) | undefined {
  const { ctx } = s;
  if (ctx.plan.noCoverage || !perTestSupported(ctx.plan.framework)) return undefined;
  const tested = [...new Set(s.files.flatMap((f) => f.ids.map((id) => s.caseOf.get(id)?.target.file)).filter((f): f is string => !!f))];
  if (!tested.length) return undefined;
  return { coverageOf: measuredFiles(tested, ctx.productFiles ?? []), perTest: true };
}

/** Keeps what a per-test run measured: a test counts as measured when it passed in an invocation that took per-test coverage. */
export function recordPerTest(s: VerifyState, results: RunResult[], obs: Map<string, Observation>): void {
  const m: PerTestMeasure = s.measured ?? { ids: new Set(), byTest: new Map(), load: new Set(), unitKeys: new Set(), texts: new Map() };
  // A reported test's case id, read from its file (ids are in comments, not names: frameworks/caseMap.ts).
  const read = caseReader(
    new Map(s.files.map((f) => [f.path, testsInFile(f.path, f.content)])),
    s.files.some((f) => f.path.endsWith('.py')),
  );
  const caseOf = (t: RunResult['tests'][number]): string | undefined =>
    read(t.name, t.file ? s.files.find((f) => f.path === t.file || t.file!.endsWith('/' + f.path))?.path : undefined);
  for (const r of results) {
    if (!r.perTest) continue;
    for (const u of r.perTest.load) m.load.add(u);
    for (const k of r.unitKeys ?? []) m.unitKeys.add(k);
    for (const t of r.tests) {
      const id = caseOf(t);
      if (!id || t.status !== 'passed' || obs.get(id)?.status !== 'passed') continue;
      m.ids.add(id);
      m.byTest.set(id, r.perTest.byTest.get(id) ?? new Set());
    }
  }
  for (const f of s.files) for (const [id, text] of testTexts(f.path, f.content)) m.texts.set(id, text);
  s.measured = m;
}

/**
 * The per-test measure of the stable tests, or undefined when the runner cannot give it. Tests not
 * measured yet (repaired, or their file changed since) are measured now, in one invocation. A test
 * that is still not measured then (it did not pass in that run: it depends on tests the filter left
 * out) is not in `ids`: it is kept unmeasured, as a test that fails alone is when each test runs on
 * its own, rather than measuring every file apart again (node-forge@1.3.1: 40 more runner starts).
 */
export async function perTestOfStable(s: VerifyState, targets: string[]): Promise<PerTestMeasure | undefined> {
  const measure = perTestOptions(s);
  if (!measure || !s.measured) return undefined;
  const m = s.measured;
  const now = new Map<string, Map<string, string>>();
  const textNow = (t: VerifyState['stable'][number]) => {
    if (!now.has(t.file.path)) now.set(t.file.path, testTexts(t.file.path, t.file.content));
    return now.get(t.file.path)!.get(t.id);
  };
  const fresh = (t: VerifyState['stable'][number]) => m.ids.has(t.id) && m.texts.get(t.id) === textNow(t);
  const missing = s.stable.filter((t) => !fresh(t));
  if (missing.length) {
    const files = [...new Set(missing.map((t) => t.file))];
    const ids = missing.map((t) => t.id);
    for (const id of ids) m.ids.delete(id);
    const { obs, results } = await s.runner.runAll(
      files.map((f) => ({ file: f.path, ids: ids.filter((id) => missing.some((t) => t.id === id && t.file === f)) })),
      { grep: ids, coverageOf: targets, perTest: true },
    );
    await s.flushPids();
    recordPerTest(s, results, obs);
  }
  for (const t of s.stable) if (!fresh(t)) m.ids.delete(t.id);
  return within(m, targets);
}

/** The measure restricted to units of `files` (the adds-coverage phase counts over its own targets). */
function within(m: PerTestMeasure, files: string[]): PerTestMeasure {
  const keep = new Set(files);
  const inFiles = (units: CoverageUnits) => new Set([...units].filter((u) => keep.has(unitFile(u))));
  return {
    ...m,
    byTest: new Map([...m.byTest].map(([id, u]) => [id, inFiles(u)])),
    load: inFiles(m.load),
    unitKeys: inFiles(m.unitKeys),
  };
}
