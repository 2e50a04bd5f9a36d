// What a test of a sequence can assert, as keyed facts: the outcome of each step, the error the last
// one threw, each step's pinned value, each observer of an object, whether a method returned its
// object, each callback's calls, the events an emitter emitted while the steps ran, and the literal
// arguments the code changed. The oracle (oracle.ts) names each check it writes by the fact it
// asserts, so a mutant's run can say which checks would notice it (`noticedBy`), and the test can keep
// only the checks that distinguish mutants (EvoSuite's assertion minimisation, `assertionsToKeep`).
import type { Observation } from './types';

export type Facts = Map<string, string>;

/** The fact no test can miss: a step that threw where it returned, or returned where it threw (the test fails at that step). */
export const OUTCOME = 'outcome';
/** The main assertion of a throwing sequence: the error's class and message. */
export const ERROR = 'error';

type Callback = Observation['callbacks'][number];

/**
 * How many of a callback's calls a test asserts: those up to the end of the step that passed it
 * (`settledAt`), then those later steps made while they ran or were awaited (p-limit's
 * `limitFunction(callback)` calls it only when its result is called). A call between steps, nobody
 * waiting, ends the count: where it lands in the test is a race.
 */
export function assertedCalls(cb: Callback): number {
  if (cb.settledAt === undefined) return cb.args.length;
  let n = cb.settledAt;
  while (n < cb.args.length && (cb.phases[n] === 'sync' || cb.phases[n] === 'await')) n++;
  return n;
}

export function factsOf(obs: Observation): Facts {
  const f: Facts = new Map();
  f.set(OUTCOME, JSON.stringify(obs.steps.map((s) => ('timeout' in s ? 't' : s.ok ? 1 : 0))));
  const end = obs.steps[obs.steps.length - 1];
  if (end && 'ok' in end && !end.ok) f.set(ERROR, JSON.stringify([end.error.name, end.error.message]));
  obs.values.forEach((v, i) => {
    if (!v) return;
    if (v.same !== undefined) f.set(`same:${i}`, String(v.same));
    if (v.v !== undefined) f.set(`v:${i}`, JSON.stringify(v.v));
    for (const o of v.obs ?? []) f.set(`o:${i}:${o.expr}`, JSON.stringify(o.v));
  });
  // Calls and events the child's own observing set off are no facts: a test's checks may read in another order.
  for (const c of obs.callbacks)
    if (!c.phases.includes('observe')) f.set(`cb:${c.id}`, JSON.stringify([c.args.slice(0, assertedCalls(c)), c.settledAt ?? null]));
  for (const e of obs.events) if (!e.phases.includes('observe')) f.set(`ev:${e.step}`, JSON.stringify(e.list));
  for (const m of obs.mutated) f.set(`mut:${m.step}:${m.arg}`, JSON.stringify(m.v ?? null));
  return f;
}

/**
 * The facts of `base` a run that observed `other` contradicts (a check of any of them fails); [OUTCOME]
 * alone when a step's outcome changed, which every test notices. Empty: the run looks the same.
 */
export function noticedBy(base: Facts, other: Facts | undefined): string[] {
  if (!other || other.get(OUTCOME) !== base.get(OUTCOME)) return [OUTCOME];
  const out: string[] = [];
  for (const [k, v] of base) if (other.get(k) !== v) out.push(k);
  return out;
}

/**
 * The fewest facts (beyond `always`, which the test asserts anyway) whose checks still notice every
 * mutant in `kills` (each the facts that notice it): greedy set cover, ties to the fact that comes
 * first in `order`, the oracle's order of checks.
 */
export function assertionsToKeep(kills: readonly (readonly string[])[], always: readonly string[], order: readonly string[]): Set<string> {
  const keep = new Set([OUTCOME, ...always]);
  let open = kills.filter((k) => !k.some((f) => keep.has(f)));
  const rank = new Map(order.map((f, i) => [f, i]));
  while (open.length) {
    const gain = new Map<string, number>();
    for (const k of open) for (const f of k) gain.set(f, (gain.get(f) ?? 0) + 1);
    const [best] = [...gain].sort((a, b) => b[1] - a[1] || (rank.get(a[0]) ?? 1e9) - (rank.get(b[0]) ?? 1e9) || a[0].localeCompare(b[0]));
    keep.add(best[0]);
    open = open.filter((k) => !k.includes(best[0]));
  }
  return keep;
}
