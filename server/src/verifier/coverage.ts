// "Adds coverage": a test whose covered units are all covered by the other kept tests is dropped.
//
// Rule (docs/verifier.md): units are statements, branch arms and functions (c8, keyed by source
// position) or lines and arcs (coverage.py --branch) of the files under test. Each candidate is
// measured alone (the runner's name filter with its case id). Candidates are then visited from the
// most to the least important (P0 first; within a priority, file order) and a test is kept only when
// it covers at least one unit that no test kept before it covers. The kept set therefore covers
// exactly what all candidates covered, and documented P0/P1 behaviour owns the coverage: a P3
// property test that repeats the examples is the one that goes, not the examples.
import type { CoverageUnits } from '../frameworks/runner';

export interface Candidate {
  id: string;
  priority: string;
  /** position in file order, for a stable tie-break */
  order: number;
  units: CoverageUnits;
}

export function redundant(candidates: Candidate[]): Map<string, string> {
  const covered = new Set<string>();
  const owner = new Map<string, string>();
  const dropped = new Map<string, string>();
  const visit = [...candidates].sort((a, b) => a.priority.localeCompare(b.priority) || a.order - b.order);
  for (const c of visit) {
    const fresh = [...c.units].filter((u) => !covered.has(u));
    if (fresh.length || covered.size === 0) {
      for (const u of c.units) if (!covered.has(u)) { covered.add(u); owner.set(u, c.id); }
      continue;
    }
    const by = [...new Set([...c.units].map((u) => owner.get(u)!))];
    dropped.set(c.id, `adds no coverage: its ${c.units.size} covered unit(s) are all covered by ${by.length} kept test(s) of higher or equal priority (${by.slice(0, 3).join(', ')}${by.length > 3 ? ', …' : ''})`);
  }
  return dropped;
}

export function union(sets: Iterable<CoverageUnits>): CoverageUnits {
  const u: CoverageUnits = new Set();
  for (const s of sets) for (const x of s) u.add(x);
  return u;
}

export function percent(covered: number, universe: number): number | undefined {
  return universe ? Math.round((1000 * covered) / universe) / 10 : undefined;
}
