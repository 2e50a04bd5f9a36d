// Which candidates become tests: greedy set cover over goals. A goal is any string a candidate
// reaches (a statement or branch `file:s@12`, a library error `error:…`, a killed mutant `mutant:…`),
// so a new objective plugs in by adding goals, not by changing the selection. Candidates that call
// with trivial values or end in an engine error are considered only after the others, for goals they
// alone reach; ties go to the shorter sequence, then the earlier one.
export interface Selectable {
  goals: readonly string[];
  trivial: boolean;
  order: number;
  length: number;
}

function pass<T extends Selectable>(pool: T[], covered: Set<string>, chosen: T[]): void {
  const left = [...pool];
  for (;;) {
    let best = -1;
    let bestGain = 0;
    left.forEach((c, i) => {
      let gain = 0;
      for (const g of c.goals) if (!covered.has(g)) gain++;
      const b = left[best];
      if (
        gain > bestGain ||
        (gain === bestGain && gain > 0 && b && (c.length < b.length || (c.length === b.length && c.order < b.order)))
      ) {
        best = i;
        bestGain = gain;
      }
    });
    if (best < 0) return;
    const [pick] = left.splice(best, 1);
    pick.goals.forEach((g) => covered.add(g));
    chosen.push(pick);
  }
}

/** The smallest greedy set reaching every goal the candidates reach; `covered` is what is reached already. */
export function selectByGoals<T extends Selectable>(candidates: readonly T[], covered: ReadonlySet<string> = new Set()): T[] {
  const reached = new Set(covered);
  const chosen: T[] = [];
  pass(
    candidates.filter((c) => !c.trivial),
    reached,
    chosen,
  );
  pass(
    candidates.filter((c) => c.trivial),
    reached,
    chosen,
  );
  return chosen.sort((a, b) => a.order - b.order);
}
