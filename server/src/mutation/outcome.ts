// Each mutant's status from what ran (docs/mutation.md): killed by every test that failed with it on,
// survived when every test that reaches it passed, no_coverage when none reaches it, and why a mutant
// was filtered, not run or could not be run.
import type { PlannedMutant } from './rounds';
import type { ScheduleResult } from './schedule';
import type { Mutant, MutantResult } from './types';

const NOT_RUN_REASONS: Record<string, string> = {
  budget: 'not run: the mutation budget ran out',
  static: 'not run: it runs while the module loads, which needs a runner process of its own, and the budget ran out',
};

export function mutantResults(
  mutants: (Mutant & { filtered?: string })[],
  planned: PlannedMutant[],
  noCoverage: string[],
  run: ScheduleResult,
): MutantResult[] {
  const plan = new Map(planned.map((p) => [p.id, p]));
  const none = new Set(noCoverage);
  const byMutant = new Map<string, ScheduleResult['results']>();
  for (const r of run.results) byMutant.set(r.mutant, [...(byMutant.get(r.mutant) ?? []), r]);
  const hung = new Set(run.hung);
  return mutants.map((m): MutantResult => {
    const { filtered, ...base } = m;
    const p = plan.get(m.id);
    const common = { ...base, killedBy: [] as string[], coveredBy: p?.tests ?? [], ...(p?.static ? { static: true } : {}) };
    if (filtered) return { ...common, status: 'filtered', reason: filtered };
    if (none.has(m.id) || (p && !p.tests.length)) return { ...common, status: 'no_coverage' };
    if (hung.has(m.id)) return { ...common, status: 'timeout', killedBy: [...common.coveredBy], reason: 'its runner process hung' };
    const notRun = run.notRun.get(m.id);
    if (notRun) return { ...common, status: 'not_run', reason: NOT_RUN_REASONS[notRun] ?? notRun };
    const results = byMutant.get(m.id) ?? [];
    const killers = results.filter((r) => r.outcome !== 'survived');
    const killedBy = [...new Set(killers.map((r) => r.test))].sort();
    if (killers.length) return { ...common, status: killers.every((r) => r.outcome === 'timeout') ? 'timeout' : 'killed', killedBy };
    if (results.length) return { ...common, status: 'survived' };
    return { ...common, status: 'error', reason: 'none of the tests that reach it ran' };
  });
}
