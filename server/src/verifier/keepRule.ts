// The keep rule with mutation (docs/verifier.md, docs/mutation.md): a test that passed every run is
// kept when it adds coverage OR kills a mutant that no other kept test kills. The coverage filter
// (coveragePhase.ts) first names the tests it would drop; those are then visited from the most to
// the least important, and one that kills a mutant the kept tests do not kill stays (its kills then
// count as kept). So no dropped test but an existence-only one kills a mutant that the kept suite lets survive, and the kept
// suite's mutation score is that of every test that passed. An existence-only test is never kept
// (docs/verifier.md): it checks an export's shape, and covers nothing beyond loading its file.
import type { KeepRule } from '../core/run';

/** A test, or a whole file when coverage was measured per file. */
export interface KeepUnit {
  key: string;
  priority: string;
  /** file order, for a stable tie-break */
  order: number;
  /** the case ids it stands for */
  tests: string[];
}

const EXISTENCE_ONLY_REASON = /existence-only test/;

/**
 * Removes from `dropping` (key → reason) the units that kill a mutant no kept unit kills, and adds to
 * the others' reasons what they kill. Returns the keys kept for their kills.
 */
export function keepKillers(units: KeepUnit[], dropping: Map<string, string>, kills: Map<string, Set<string>>): string[] {
  const killsOf = (u: KeepUnit) => new Set(u.tests.flatMap((t) => [...(kills.get(t) ?? [])]));
  const killedByKept = new Set<string>();
  const killer = new Map<string, string>();
  const claim = (u: KeepUnit) => {
    for (const m of killsOf(u))
      if (!killedByKept.has(m)) {
        killedByKept.add(m);
        killer.set(m, u.key);
      }
  };
  for (const u of units) if (!dropping.has(u.key)) claim(u);
  const kept: string[] = [];
  const visit = units.filter((u) => dropping.has(u.key)).sort((a, b) => a.priority.localeCompare(b.priority) || a.order - b.order);
  for (const u of visit) {
    const mine = [...killsOf(u)];
    const unique = mine.some((m) => !killedByKept.has(m));
    // An existence-only test is never kept for its kills.
    if (unique && EXISTENCE_ONLY_REASON.test(dropping.get(u.key)!.split(';')[0])) {
      dropping.set(u.key, `${dropping.get(u.key)!}; an existence-only test is never kept for the ${mine.length} mutant(s) it kills`);
      continue;
    }
    if (unique) {
      claim(u);
      dropping.delete(u.key);
      kept.push(u.key);
      continue;
    }
    const by = [...new Set(mine.map((m) => killer.get(m)!))];
    const detail = mine.length
      ? `its ${mine.length} killed mutant(s) are all killed by ${by.length} kept test(s) (${by.slice(0, 3).join(', ')}${by.length > 3 ? ', …' : ''})`
      : 'it kills no mutant';
    dropping.set(u.key, `${dropping.get(u.key)!}; and kills no mutant the kept tests do not kill: ${detail}`);
  }
  return kept;
}

/** The rule a drop reason stands for. */
export function ruleOf(reason: string, mutation: boolean): KeepRule {
  if (EXISTENCE_ONLY_REASON.test(reason.split(';')[0])) return 'existence_only';
  return mutation ? 'unique_coverage_or_kill' : 'unique_coverage';
}
