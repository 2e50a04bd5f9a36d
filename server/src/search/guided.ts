// Mutation as an objective of the search (EvoSuite's and Pynguin's mutation criterion), for one module
// after its generation loop: the files its runs loaded are instrumented with the mutation engine's
// schemata; the candidates and the other sequences that left a new state are tried against the
// mutants they reach (mutantPhase.ts), survivors are hunted with variants (survivors.ts), and each
// kill becomes a goal (`mutant:<id>`) of the sequence, so the selection keeps a sequence that kills a
// mutant no other kept one kills. Each sequence also carries which of its checks notice its kills,
// for assertion minimisation. Everything within a count of runs fixed before it starts.
import type { ChildJob } from './child';
import { assertionsToKeep } from './facts';
import type { Candidate, GenerateResult } from './generate';
import { mutationPhase, type PoolEntry, type SequenceKills } from './mutantPhase';
import { MutantChild, type Instrumenter } from './mutants';
import { MAX_CHECKS, oracleFacts } from './oracle';
import { selectByGoals } from './select';
import { huntSurvivors } from './survivors';
import { isTrivialArgs } from './trivial';
import type { Observation, Sequence } from './types';

/** sequences traced on the instrumented code at most (the candidates first) */
const MAX_POOL = 600;
/** of the module's runs, the share the mutation phase gets at least (it also gets what generation left) */
const MUTATION_SHARE = 0.5;

export interface MutationSummary {
  mutants: number;
  /** mutants some sequence reaches */
  covered: number;
  /** mutants some candidate kills */
  killed: number;
  /** of them, found by the survivor search */
  hunted: number;
  runs: number;
}

export interface Guided {
  candidates: Candidate[];
  /** per sequence id: the mutants it kills and the checks that notice them */
  kills: Map<string, SequenceKills>;
  summary?: MutationSummary;
}

/** Runs the mutation phase's share of a module's runs: what generation left, and at least MUTATION_SHARE of the budget. */
export function mutationRuns(executions: number, executed: number): number {
  return Math.max(executions - executed, Math.round(executions * MUTATION_SHARE));
}

function isScript(file: string): boolean {
  return /\.(c|m)?(j|t)sx?$/.test(file) && !/\.d\.[cm]?ts$/.test(file);
}

export async function guideByMutants(
  g: GenerateResult,
  o: { job: ChildJob; local: string; seed: number; runs: number; instrument: Instrumenter; signal?: AbortSignal },
): Promise<Guided> {
  const none: Guided = { candidates: g.candidates, kills: new Map() };
  if (!g.candidates.length || !g.state || o.runs <= 0) return none;
  const set = await o.instrument(g.goals.knownFiles.filter(isScript), o.signal).catch(() => undefined);
  if (!set?.mutants.length) return none;
  const preferred = new Set(selectByGoals(g.candidates.map((c) => ({ ...c, length: c.seq.steps.length }))).map((c) => c.order));
  const ids = new Set(g.candidates.map((c) => c.seq.id));
  const extras = g.corpus.filter((e) => !ids.has(e.seq.id));
  const pool: PoolEntry[] = [
    ...g.candidates.map((c) => ({ seq: c.seq, obs: c.obs, order: c.order, preferred: preferred.has(c.order) })),
    ...extras.map((e) => ({ seq: e.seq, obs: e.obs, order: Number(e.seq.id), preferred: false })),
  ].slice(0, MAX_POOL);
  const child = new MutantChild(o.job, set.overrides);
  try {
    const phase = await mutationPhase({ child, mutants: set.mutants, pool, local: o.local, seed: o.seed, limit: o.runs, signal: o.signal });
    const found = await huntSurvivors({
      child,
      state: g.state,
      survivors: phase.survivors,
      local: o.local,
      seed: o.seed,
      limit: o.runs,
      signal: o.signal,
    });
    const kills = phase.kills;
    const byId = new Map(g.candidates.map((c) => [c.seq.id, c]));
    const candidates = g.candidates.map((c) => ({ ...c, goals: [...c.goals, ...(kills.get(c.seq.id)?.goals ?? [])] }));
    let order = Math.max(0, ...pool.map((p) => p.order)) + 1;
    const added = (seq: Sequence, obs: Observation, goals: string[]): Candidate => ({
      seq,
      obs,
      goals,
      order: order++,
      trivial: isTrivialArgs(seq, obs),
    });
    for (const e of extras) {
      const k = kills.get(e.seq.id);
      if (k?.goals.length && !byId.has(e.seq.id)) candidates.push({ ...added(e.seq, e.obs, k.goals), order: Number(e.seq.id) });
    }
    for (const f of found) {
      candidates.push(added(f.seq, f.obs, f.goals));
      kills.set(f.seq.id, { goals: f.goals, notice: f.notice, complete: true });
    }
    const hunted = found.reduce((n, f) => n + f.goals.length, 0);
    return {
      candidates,
      kills,
      summary: { mutants: phase.mutants, covered: phase.covered, killed: phase.killed + hunted, hunted, runs: child.runs },
    };
  } finally {
    child.close();
  }
}

/**
 * The facts a kept sequence's test asserts beside its main one: those that notice the mutants it
 * kills (the fewest, EvoSuite's minimisation), and every callback's calls and emitter's events; when
 * not all its kills are known, also its first checks as without mutants. Undefined (the oracle's default) when the mutation phase did not run.
 */
export function factsToKeep(seq: Sequence, obs: Observation, local: string, kills: SequenceKills | undefined): Set<string> | undefined {
  if (!kills) return undefined;
  const order = oracleFacts(seq, obs, local);
  if (!order.length) return undefined;
  const keep = assertionsToKeep(kills.notice, [order[0]], order);
  if (!kills.complete) order.slice(1, 1 + MAX_CHECKS).forEach((f) => keep.add(f));
  // What the code called back and emitted is its behaviour whatever our mutants say: a test that
  // passes a callback and never checks its calls passes with the call deleted (StrykerJS's block
  // removal, which the search's own operators do not make).
  order.filter((f) => f.startsWith('cb:') || f.startsWith('ev:')).forEach((f) => keep.add(f));
  return keep;
}
