// The verifier's work once the test run is approved, in named phases (docs/verifier.md):
// prepare → run (N times) → place → judge (repair / quarantine / drop) → mutation → adds coverage (the
// keep rule) → rewrite → tidy (shared setup into beforeEach) → confirm → coverage rounds (then confirm
// again) → report.
// Each phase reads and updates one typed state (state.ts).
import type { TestCase } from '../contracts/types';
import { crashPoint } from '../core/faults';
import type { CaseResult, FilterStep } from '../core/run';
import type { RunResult } from '../frameworks/runner';
import { finalCoverage, percent, union } from './coverage';
import { coveragePhase, type CoverageOutcome } from './coveragePhase';
import { CaseRunner } from './execute';
import { judgePhase } from './judgePhase';
import { holdAccepted } from './acceptedTests';
import { mutantProvider } from './mutantProvider';
import { mutationPhase } from './mutationPhase';
import type { MutationRecord } from '../core/mutation';
import { untestedFiles, withoutFiles } from './productFiles';
import { declaredBuilds, leftOutCopies } from '../coverage/copies';
import type { CoverageUnits } from '../frameworks/runner';
import { placePhase } from './placePhase';
import { confirmPhase, rewritePhase } from './rewritePhase';
import { tidyPhase } from './tidyPhase';
import { runPhase } from './runPhase';
import { roundsPhase } from './rounds';
import { isAmtpTestPath } from '../agents/engineer/filePlan';
import { isExistenceOnly } from '../agents/generator/existence';
import { isShapeOnlyTest } from './existenceChecks';
import { drop, type PersonalFile, type VerifyContext, type VerifyState } from './state';
import { findTests } from './testFile';

export type { VerifyContext } from './state';

export async function verifyFiles(ctx: VerifyContext): Promise<void> {
  const s = prepare(ctx);
  const phases: Record<string, number> = {};
  // Each phase's wall time goes into verification.phases (the summary shows them).
  const timed = async <T>(name: string, phase: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await phase();
    } finally {
      phases[name] = Math.round((phases[name] ?? 0) * 100 + (performance.now() - started) / 10) / 100;
    }
  };
  await timed('run', () => runPhase(s));
  crashPoint('verify:ran');
  ctx.info(
    `verify: ${s.stable.length} stable, ${s.failing.size} failing, ${s.loadFailures.reduce((n, f) => n + f.ids.length, 0)} not loading, ${s.notCollected.reduce((n, f) => n + f.ids.length, 0)} not collected, ${s.results.size} dropped after ${ctx.params.runs} run(s)`,
  );
  await timed('place', () => placePhase(s));
  holdAccepted(s);
  await timed('judge', () => judgePhase(s));
  // The run's work so far: its finished stages' times (no approval wait counts) and this stage's phases.
  const worked = [...Object.values(ctx.run().timings ?? {}), ...Object.values(phases)].reduce((t, x) => t + x, 0);
  const mutation = await timed('mutation', () => mutationPhase(s, worked));
  const cov = await timed('coverage', () => coveragePhase(s, mutation?.kills));
  // The coverage rounds also get the survivors, and keep a new test that kills one (./mutantProvider.ts).
  if (!ctx.mutants && mutation?.record.status === 'done') ctx.mutants = mutantProvider(s, mutation.record, mutation.sources ?? {});
  for (const t of s.stable)
    if (!s.results.has(t.id)) s.results.set(t.id, { caseId: t.id, outcome: 'passing', test: s.names.get(t.id) ?? t.id });
  const quarantineFiles = await timed('rewrite', () => rewritePhase(s));
  await timed('tidy', () => tidyPhase(s));
  let confirmed = await timed('confirm', () => confirmPhase(s, cov.coverage.tool ? cov.targets : undefined, cov.universe));
  // Coverage rounds add tests for what the kept suite leaves uncovered; the suite is then confirmed again.
  if (cov.coverage.tool && (await timed('rounds', () => roundsPhase(s, union(confirmed.after), cov.universe, cov.targets))))
    confirmed = await timed('confirm', () => confirmPhase(s, cov.targets, cov.universe));
  await report(s, cov, confirmed.after, confirmed.runs, quarantineFiles, mutation?.record, phases);
}

/** Phase "prepare": the files' tests by case id; a case the engineer listed but no test carries does not load. */
function prepare(ctx: VerifyContext): VerifyState {
  const pids: number[] = [];
  const runner = new CaseRunner(
    ctx.plan,
    ctx.workspace,
    ctx.params.timeoutSeconds * 1000,
    ctx.signal,
    (pid) => pids.push(pid),
    ctx.runTests,
  );
  const s: VerifyState = {
    ctx,
    runner,
    flushPids: () =>
      ctx.update((v) => {
        v.pids.push(...pids.splice(0));
        v.executions = runner.executions;
      }),
    caseOf: new Map<string, TestCase>(ctx.cases.cases.map((c) => [c.id, c])),
    results: new Map(),
    names: new Map(),
    files: [],
    written: 0,
    loadFailures: [],
    notCollected: [],
    failing: new Map(),
    stable: [],
    accepted: new Set(),
  };
  s.files = ctx.files.map((f) => {
    // Only this run's cases: a file merged into also holds earlier runs' tests, which stay as they are,
    // and so do the tests the person accepted that this run was not allowed to change (pipeline/writePlan.ts).
    const accepted = new Set(ctx.run().files.find((r) => r.path === f.path)?.acceptedKept ?? []);
    const mine = new Set(f.caseIds.filter((id) => !accepted.has(id)));
    const ids = [...new Set(findTests(f.path, f.content).map((b) => b.caseId))].filter((id) => mine.has(id));
    // Those it wrote again exactly as they were are run, but never changed (./acceptedTests.ts).
    for (const id of ctx.run().files.find((r) => r.path === f.path)?.acceptedSame ?? []) if (ids.includes(id)) s.accepted.add(id);
    for (const id of mine) if (!ids.includes(id)) drop(s, id, 'loads', `no test in ${f.path} carries the case id ${id}`);
    const personal = personalFile(ctx, f.path);
    return { path: f.path, content: f.content, ids, ...(personal ? { personal } : {}) };
  });
  s.written = s.files.reduce((n, f) => n + f.ids.length, 0) + s.results.size;
  return s;
}

/** The person's own test file this run merged into (pipeline/writePlan.ts), with what the verifier needs to leave their tests alone. */
function personalFile(ctx: VerifyContext, path: string): PersonalFile | undefined {
  const run = ctx.run();
  const rec = run.files.find((r) => r.path === path);
  if (rec?.before === undefined && !(run.params.intoExisting && !isAmtpTestPath(path))) return undefined;
  const own = ctx.engineer.files.find((f) => f.path === path)?.content ?? '';
  return { own, ...(rec?.before !== undefined ? { before: rec.before } : {}) };
}

/** The kept suite's coverage over the product files, each module shipped twice counted once, into `cov.coverage`. */
function countKept(ctx: VerifyContext, cov: CoverageOutcome, after: Parameters<typeof union>[0], runs: RunResult[]): void {
  // A module shipped twice (src/ beside dist/, a CommonJS and an ES build) counts once (coverage/copies.ts).
  const covered = union(after);
  const copies = leftOutCopies(
    ctx.productFiles ?? [],
    (f) => [...covered].filter((u) => u.startsWith(`${f}:s@`) || u.startsWith(`${f}:l`)).length,
    declaredBuilds(ctx.workspace),
  );
  const counted = (units: CoverageUnits) => withoutFiles(units, copies);
  const universe = counted(cov.universe);
  const kept = counted(covered);
  if (cov.before) cov.coverage.before = percent(counted(cov.before).size, universe.size);
  cov.coverage.after = percent(kept.size, universe.size);
  // Statements, branches, beyond import, the tool and the map of the kept suite (for --lcov / --cobertura).
  Object.assign(cov.coverage, finalCoverage(runs, kept, cov.loaded, universe));
  const product = (ctx.productFiles ?? []).filter((f) => !copies.includes(f));
  if (product.length) Object.assign(cov.coverage, { productFiles: product.length, untestedFiles: untestedFiles(product, kept) });
  if (copies.length) cov.coverage.copiesLeftOut = copies;
}

/** Phase "report": the filter counts, results in plan order, coverage before/after, into the run record. */
async function report(
  s: VerifyState,
  cov: CoverageOutcome,
  after: Parameters<typeof union>[0],
  runs: RunResult[],
  quarantineFiles: string[],
  mutation: MutationRecord | undefined,
  phases: Record<string, number>,
): Promise<void> {
  const { ctx, results } = s;
  if (cov.coverage.tool) countKept(ctx, cov, after, runs);
  const byStep = (step: CaseResult['step'], outcome?: CaseResult['outcome']) =>
    [...results.values()].filter((r) => r.step === step && (!outcome || r.outcome === outcome));
  const loads = byStep('loads');
  const unstable = byStep('passes_every_run').filter((r) => r.outcome !== 'quarantined');
  const quarantined = byStep('passes_every_run', 'quarantined');
  const loadsKept = s.written - loads.length;
  const filters: FilterStep[] = [
    { step: 'loads', kept: loadsKept, dropped: loads.length, names: loads.map((r) => r.test ?? r.caseId) },
    {
      step: 'passes_every_run',
      kept: loadsKept - unstable.length - quarantined.length,
      dropped: unstable.length,
      quarantined: quarantined.length,
      names: [...unstable, ...quarantined].map((r) => r.test ?? r.caseId),
    },
    cov.step,
  ];
  const order = new Map(ctx.cases.cases.map((c, i) => [c.id, i]));
  const behaviour = s.files.flatMap((f) =>
    f.ids.filter((id) => isExistenceOnly(s.caseOf.get(id) ?? { kind: 'example' }) && !isShapeOnlyTest(s, f.path, f.content, id)),
  );
  await ctx.update((v) => {
    v.filters = filters;
    if (behaviour.length) v.behaviourChecks = behaviour;
    v.results = [...results.values()]
      .map((r) => (s.accepted.has(r.caseId) ? { ...r, accepted: true } : r))
      .sort((a, b) => (order.get(a.caseId) ?? 1e9) - (order.get(b.caseId) ?? 1e9));
    v.coverage = cov.coverage;
    v.quarantineFiles = quarantineFiles;
    v.executions = s.runner.executions;
    v.phases = phases;
    if (mutation) v.mutation = mutation;
  });
}
