// The search's mutation phase for one module (mutants.ts says what a kill is): within a count of
// runs fixed before it starts, (1) trace each sequence of the pool (the candidates, then the other
// sequences that left a new state) on the instrumented code to learn which mutants it reaches, (2)
// try each mutant, in source order, against the sequences that reach it: every sequence the coverage
// selection keeps anyway (so each kept test knows all it kills and which of its checks notice them),
// then others, shortest first, until one kills it, and (3) hand the mutants that survive every
// sequence that reaches them to the survivor search (survivors.ts). Same pool, mutants and count:
// same kills, on every machine.
import { factsOf, OUTCOME, type Facts } from './facts';
import { hitLimit, mutantGoal, type MutantChild, type SearchMutant } from './mutants';
import { oracleFacts } from './oracle';
import { fingerprint } from './stability';
import type { Observation, Sequence } from './types';

/** Sequences the coverage selection keeps that are tried against one mutant, at most */
const PREFERRED_TRIES = 6;
/** other sequences tried against a mutant nothing kept kills, at most */
const OTHER_TRIES = 3;

export interface PoolEntry {
  seq: Sequence;
  /** what it observed on the original code */
  obs: Observation;
  order: number;
  /** the coverage selection keeps it */
  preferred: boolean;
}

/** One sequence's part: the mutants it kills, and per kill the facts (checks) that notice it. */
export interface SequenceKills {
  goals: string[];
  notice: string[][];
  /** tried against every mutant it reaches */
  complete: boolean;
}

export interface Traced {
  entry: PoolEntry;
  facts: Facts;
  /** the facts its oracle can assert */
  assertable: Set<string>;
  reached: Record<string, number>;
}

export interface PhaseResult {
  kills: Map<string, SequenceKills>;
  /** mutants some pool sequence reaches and none kills, in source order, with the sequences that reach them */
  survivors: { mutant: SearchMutant; reachedBy: Traced[] }[];
  mutants: number;
  covered: number;
  killed: number;
  runs: number;
}

export interface PhaseOptions {
  /** a child on the module's instrumented files */
  child: MutantChild;
  mutants: readonly SearchMutant[];
  pool: readonly PoolEntry[];
  local: string;
  seed: number;
  /** the child's run count at which to stop */
  limit: number;
  signal?: AbortSignal;
}

/** The facts of `obs` a test of it can assert (and OUTCOME, which every test notices). */
export function assertableFacts(seq: Sequence, obs: Observation, local: string): Set<string> {
  return new Set([OUTCOME, ...oracleFacts(seq, obs, local)]);
}

function byPlace(a: SearchMutant, b: SearchMutant): number {
  return a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column || a.id.localeCompare(b.id, 'en', { numeric: true });
}

/** Tries `mutant` against one traced sequence; the facts that notice it, within what the test asserts (empty: it survives). */
export async function tryMutant(child: MutantChild, t: Traced, mutant: string, seed: number): Promise<string[]> {
  const seen = await child.notice(t.entry.seq, seed, mutant, t.facts, hitLimit(t.reached[mutant]));
  return seen.filter((f) => t.assertable.has(f));
}

export async function mutationPhase(o: PhaseOptions): Promise<PhaseResult> {
  const child = o.child;
  const kills = new Map<string, SequenceKills>();
  const result: PhaseResult = { kills, survivors: [], mutants: o.mutants.length, covered: 0, killed: 0, runs: 0 };
  const started = child.runs;
  const left = () => child.runs < o.limit && !o.signal?.aborted;
  try {
    // (1) which mutants each sequence reaches; one that observes something else here than on the original code is left out
    const traced: Traced[] = [];
    for (const entry of o.pool) {
      if (!left()) break;
      const t = await child.trace(entry.seq, o.seed);
      if (!t || fingerprint(t.obs) !== fingerprint(entry.obs)) continue;
      traced.push({ entry, facts: factsOf(entry.obs), assertable: assertableFacts(entry.seq, entry.obs, o.local), reached: t.reached });
      kills.set(entry.seq.id, { goals: [], notice: [], complete: true });
    }
    const done = new Set<string>();
    // (2) each mutant against the sequences that reach it
    const order = (a: Traced, b: Traced) => a.entry.seq.steps.length - b.entry.seq.steps.length || a.entry.order - b.entry.order;
    for (const m of [...o.mutants].sort(byPlace)) {
      const reaching = traced.filter((t) => t.reached[m.id] !== undefined);
      if (!reaching.length) continue;
      result.covered++;
      const preferred = reaching.filter((t) => t.entry.preferred).sort((a, b) => a.entry.order - b.entry.order);
      const others = reaching.filter((t) => !t.entry.preferred).sort(order);
      let killed = false;
      // A sequence not tried against a mutant an earlier one kills is not missing a kill the suite needs.
      const untried = new Set(reaching);
      const attempt = async (t: Traced) => {
        untried.delete(t);
        const seen = await tryMutant(child, t, m.id, o.seed);
        if (!seen.length) return;
        killed = true;
        const k = kills.get(t.entry.seq.id)!;
        k.goals.push(mutantGoal(m.id));
        k.notice.push(seen);
      };
      for (const t of preferred.slice(0, PREFERRED_TRIES)) if (left()) await attempt(t);
      for (const t of others.slice(0, OTHER_TRIES)) if (!killed && left()) await attempt(t);
      if (!killed) for (const t of untried) kills.get(t.entry.seq.id)!.complete = false;
      done.add(m.id);
      if (killed) result.killed++;
      else result.survivors.push({ mutant: m, reachedBy: [...preferred, ...others] });
      if (!left()) break;
    }
    // A mutant the count did not reach is one its sequences were not tried against.
    for (const t of traced) if (Object.keys(t.reached).some((id) => !done.has(id))) kills.get(t.entry.seq.id)!.complete = false;
  } finally {
    result.runs = child.runs - started;
  }
  return result;
}
