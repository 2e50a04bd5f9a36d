// The search for surviving mutants (as Meta's ACH does from a mutant to a test that catches it): for
// each mutant some sequence reaches and none kills, variants of the sequences that reach it: the same
// calls with other arguments for one step, or one more step on an object they made (a method whose
// result or state shows what the mutant changed). A variant that still reaches the mutant and whose
// test would notice it becomes a candidate with that mutant's goal, and is tried against the other
// open survivors it reaches. Drawn with the search's seeded generator, within a count of runs.
import { extendAny, varyStep, type BuilderState } from './builder';
import { factsOf } from './facts';
import { assertableFacts, tryMutant, type Traced } from './mutantPhase';
import { mutantGoal, type MutantChild, type SearchMutant } from './mutants';
import type { Observation, Sequence } from './types';

/** variants tried for one survivor, at most */
const VARIANTS = 10;
/** other open survivors a new killer is tried against, at most */
const ALSO_TRIED = 8;

export interface Found {
  seq: Sequence;
  /** what it observed on the instrumented code with no mutant on */
  obs: Observation;
  goals: string[];
  notice: string[][];
}

export interface HuntOptions {
  child: MutantChild;
  state: BuilderState;
  survivors: readonly { mutant: SearchMutant; reachedBy: readonly Traced[] }[];
  local: string;
  seed: number;
  /** the child's run count at which to stop */
  limit: number;
  signal?: AbortSignal;
}

/** A step with arguments to vary: the last one half the time, else any. */
function stepToVary(state: BuilderState, seq: Sequence): number {
  const withArgs = seq.steps.flatMap((s, i) =>
    (s.args ?? []).length || s.op === 'call' || s.op === 'new' || s.op === 'method' ? [i] : [],
  );
  if (!withArgs.length) return -1;
  return state.rng.chance(0.5) ? withArgs[withArgs.length - 1] : state.rng.pick(withArgs);
}

function variant(state: BuilderState, base: Traced, id: string): Sequence | undefined {
  const from = { seq: base.entry.seq, obs: base.entry.obs };
  // other arguments for a step, else one more step (past the search's longest: the hunt may go two further)
  for (let i = 0; i < 3; i++) {
    const at = stepToVary(state, from.seq);
    const v =
      state.rng.chance(0.6) && at >= 0 ? varyStep(state, from, at, id) : extendAny({ ...state, maxSteps: state.maxSteps + 2 }, from, id);
    if (v) return v;
  }
  return undefined;
}

export async function huntSurvivors(o: HuntOptions): Promise<Found[]> {
  const found: Found[] = [];
  const killed = new Set<string>();
  let n = 0;
  const left = () => o.child.runs < o.limit && !o.signal?.aborted;
  for (const [i, s] of o.survivors.entries()) {
    if (!left()) break;
    if (killed.has(s.mutant.id)) continue;
    const bases = s.reachedBy.slice(0, 4);
    for (let v = 0; v < VARIANTS && left(); v++) {
      const seq = variant(o.state, bases[o.state.rng.int(bases.length)], `m${n++}`);
      if (!seq) continue;
      const t = await o.child.trace(seq, o.seed);
      if (!t || t.reached[s.mutant.id] === undefined) continue;
      const traced: Traced = {
        entry: { seq, obs: t.obs, order: 0, preferred: false },
        facts: factsOf(t.obs),
        assertable: assertableFacts(seq, t.obs, o.local),
        reached: t.reached,
      };
      const seen = await tryMutant(o.child, traced, s.mutant.id, o.seed);
      if (!seen.length) continue;
      const f: Found = { seq, obs: t.obs, goals: [mutantGoal(s.mutant.id)], notice: [seen] };
      killed.add(s.mutant.id);
      let also = 0;
      for (const other of o.survivors.slice(i + 1)) {
        if (also >= ALSO_TRIED || !left()) break;
        if (killed.has(other.mutant.id) || t.reached[other.mutant.id] === undefined) continue;
        also++;
        const more = await tryMutant(o.child, traced, other.mutant.id, o.seed);
        if (!more.length) continue;
        killed.add(other.mutant.id);
        f.goals.push(mutantGoal(other.mutant.id));
        f.notice.push(more);
      }
      found.push(f);
      break;
    }
  }
  return found;
}
