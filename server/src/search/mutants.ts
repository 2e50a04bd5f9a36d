// The hook for a second objective: "kills a mutant no kept test kills" (the mutation engine builds the
// mutants). Given a module's code instrumented with mutant schemata (Stryker's: every mutant behind a
// check of `globalThis.__stryker__.activeMutant`), the kept sequences are run again with each mutant
// active, in a child that loads the instrumented text in place of the file (`overrides`); a sequence
// kills a mutant when what it observes differs from what it observed on the original code (a
// different value, error, callback call or state, or a run that no longer ends cleanly). The kills
// become goals (`mutant:<id>`) that select.ts counts beside statements and branches.
import { SearchChild, type ChildJob } from './child';
import { fingerprint } from './stability';
import type { Observation, Sequence } from './types';

export interface MutantRun {
  /** the module's instrumented text by absolute file (the module itself and any file it requires) */
  overrides: Record<string, string>;
  /** ids of the mutants to try */
  mutants: readonly string[];
}

export function mutantGoal(id: string): string {
  return `mutant:${id}`;
}

/**
 * For each sequence id, the goals of the mutants it kills. `baseline` is what each observed on the
 * original code. One child runs every (mutant, sequence) pair, the mutant switched per run; a fresh
 * one replaces it after a timeout or a crash (which kills the mutant).
 */
export async function killedMutants(
  job: ChildJob,
  sequences: readonly { seq: Sequence; baseline: Observation }[],
  run: MutantRun,
  seed: number,
): Promise<Map<string, string[]>> {
  const kills = new Map<string, string[]>(sequences.map((s) => [s.seq.id, []]));
  const mutated: ChildJob = { ...job, overrides: { ...job.overrides, ...run.overrides } };
  let opened = await SearchChild.open(mutated);
  try {
    for (const id of run.mutants) {
      for (const s of sequences) {
        const r = opened.discovery ? await opened.child.run(s.seq, seed, id) : undefined;
        const same = r?.kind === 'ran' && r.obs.settled && fingerprint(r.obs) === fingerprint(s.baseline);
        if (!same) kills.get(s.seq.id)!.push(mutantGoal(id));
        if (r && (r.kind !== 'ran' || !r.obs.settled)) {
          opened.child.close();
          opened = await SearchChild.open(mutated);
        }
      }
    }
  } finally {
    opened.child.close();
  }
  return kills;
}
