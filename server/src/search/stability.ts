// Today's rule for pinned behaviour, for sequences: a selected sequence is run again in two fresh
// children, the second in reverse order, with another Math.random seed and a slow machine's clock
// (each read SLOW_CLOCK_STEP_MS later than the last); a sequence is kept only when all three runs
// observed the same thing, so output that depends on time, on how long the calls took (a cache
// entry with `maxAge: 1` that expires on a loaded machine), randomness, object identity or what
// earlier sequences left behind (a counter, a cache) is dropped. Dropped ones leave
// their goals open for the next greedy pick among the rest (at most three rounds).
import { SearchChild, type ChildJob } from './child';
import type { Candidate } from './generate';
import { selectByGoals } from './select';
import type { Observation, SeqOutcome, Sequence } from './types';

/**
 * How much later each clock read is in the reversed run: a pause a busy machine or a slower runner
 * can put between two calls. A sequence whose outcome changes with it (a cache entry with
 * `maxAge: 1`) would fail now and then under the project's own runner. Not more: on quick-lru, 25 ms
 * also dropped sequences that only long pauses upset, for about 10 points of statements.
 */
const SLOW_CLOCK_STEP_MS = 5;

export interface Confirmed {
  kept: { cand: Candidate; obs: Observation }[];
  unstable: number;
}

/** What a test of the sequence would compare: outcomes, pinned values, observers, callbacks, events, changed arguments. */
export function fingerprint(obs: Observation): string {
  return JSON.stringify({
    steps: obs.steps.map((s) => ('timeout' in s ? 't' : s.ok ? [1, s.async] : [0, s.async, s.error.name, s.error.message])),
    values: obs.values.map((v) => (v ? [v.v ?? null, v.obs ?? null, v.same ?? null, v.shape.cls ?? null] : null)),
    mutated: obs.mutated,
    callbacks: obs.callbacks.map((c) => [c.id, c.args, c.phases, c.settledAt ?? null]),
    events: obs.events.map((e) => [e.step, e.list, e.phases]),
    settled: obs.settled,
  });
}

function clean(r: SeqOutcome | undefined): r is Extract<SeqOutcome, { kind: 'ran' }> {
  return !!r && r.kind === 'ran' && r.obs.settled && !r.guard.length && !r.net && !r.uncaught.length;
}

/** Runs sequences in order in one fresh child (a fresh one again after a timeout or a crash). */
async function replay(job: ChildJob, seqs: readonly Sequence[], seed: number, clockStepMs?: number): Promise<Map<string, SeqOutcome>> {
  const out = new Map<string, SeqOutcome>();
  let opened = await SearchChild.open(job);
  try {
    for (const seq of seqs) {
      if (!opened.discovery) {
        out.set(seq.id, { kind: 'crash', detail: opened.load ?? 'the module did not load' });
        continue;
      }
      const r = await opened.child.run(seq, seed, clockStepMs ? { clockStepMs } : {});
      out.set(seq.id, r);
      if (r.kind !== 'ran' || !r.obs.settled) {
        opened.child.close();
        opened = await SearchChild.open(job);
      }
    }
  } finally {
    opened.child.close();
  }
  return out;
}

export async function confirmStable(
  job: ChildJob,
  candidates: readonly Candidate[],
  seed: number,
  signal?: AbortSignal,
): Promise<Confirmed> {
  const verified = new Map<number, Observation>();
  const unstable = new Set<number>();
  const pool = candidates.map((c) => ({ ...c, length: c.seq.steps.length }));
  let chosen = selectByGoals(pool);
  for (let round = 0; round < 3 && !signal?.aborted; round++) {
    const todo = chosen.filter((c) => !verified.has(c.order));
    if (!todo.length) break;
    const seqs = todo.map((c) => c.seq);
    const forward = await replay(job, seqs, seed + 1);
    const backward = await replay(job, [...seqs].reverse(), seed + 2, SLOW_CLOCK_STEP_MS);
    for (const c of todo) {
      const a = forward.get(c.seq.id);
      const b = backward.get(c.seq.id);
      const same = clean(a) && clean(b) && fingerprint(a.obs) === fingerprint(c.obs) && fingerprint(b.obs) === fingerprint(c.obs);
      if (same) verified.set(c.order, a.obs);
      else unstable.add(c.order);
    }
    chosen = selectByGoals(pool.filter((c) => !unstable.has(c.order)));
  }
  const kept = chosen.filter((c) => verified.has(c.order)).map((cand) => ({ cand, obs: verified.get(cand.order)! }));
  return { kept, unstable: unstable.size };
}
