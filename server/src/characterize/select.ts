// Keeps the smallest set of calls that covers the most: greedy set cover over the source characters
// each call covered (measured per call in the harness), and the branches (arcs) it took where the
// harness reports them (Python), ties broken by the earlier call.
export interface Covering {
  id: string;
  spans: readonly (readonly [string, number, number])[];
  /** taken branches (Python's line-to-line arcs), counted beside the spans */
  arcs?: readonly string[];
}

function units(c: Covering): string[] {
  const out: string[] = [];
  for (const [file, start, end] of c.spans) for (let i = start; i < end; i++) out.push(`${file}:${i}`);
  for (const arc of c.arcs ?? []) out.push(`arc ${arc}`);
  return out;
}

export function greedySelect<T extends Covering>(calls: readonly T[]): T[] {
  const covered = new Set<string>();
  const left = calls.map((c) => ({ c, units: units(c) }));
  const chosen: T[] = [];
  for (;;) {
    let best = -1;
    let bestGain = 0;
    left.forEach((c, i) => {
      const gain = c.units.filter((u) => !covered.has(u)).length;
      if (gain > bestGain) {
        best = i;
        bestGain = gain;
      }
    });
    if (best < 0) return chosen;
    const [pick] = left.splice(best, 1);
    for (const u of pick.units) covered.add(u);
    chosen.push(pick.c);
  }
}
