// The second objective of the search: killed mutants. The mutation engine (server/src/mutation/, Stryker's
// instrumenter) gives the files a module loaded as mutant schemata: every mutant behind a check of
// `globalThis.__stryker__.activeMutant`. A mutant child loads that text in place of the files
// (`overrides`) and runs sequences with a mutant switched on, or with none and a trace of the mutants
// the run reached (Stryker's per-test mutant coverage). A sequence kills a mutant when a test of it
// would notice: a fact its oracle asserts (facts.ts) differs from the run on the original code, a
// step's outcome changed, or the run no longer ends (a hang, a crash, the mutant's hit limit). Kills
// are goals (`mutant:<id>`) that select.ts counts beside statements and branches.
import { SearchChild, type ChildJob } from './child';
import { factsOf, noticedBy, type Facts } from './facts';
import type { Observation, RunReply, Sequence } from './types';

/** A mutant of a searched module's files, where it is (1-based), for trying mutants in source order. */
export interface SearchMutant {
  id: string;
  /** workspace-relative */
  file: string;
  line: number;
  column: number;
  /** the operator and what it puts in place (for reports) */
  mutator?: string;
  replacement?: string;
}

/** What the mutation engine gives the search for one module: the instrumented texts and their mutants. */
export interface MutantSet {
  /** absolute file → instrumented text (every file the module's runs loaded) */
  overrides: Record<string, string>;
  mutants: SearchMutant[];
}

/** Instruments workspace-relative files; undefined when nothing could be (the search then runs without mutants). */
export type Instrumenter = (files: string[], signal?: AbortSignal) => Promise<MutantSet | undefined>;

export interface MutantRun {
  /** the module's instrumented text by absolute file (the module itself and any file it requires) */
  overrides: Record<string, string>;
  /** ids of the mutants to try */
  mutants: readonly string[];
}

export function mutantGoal(id: string): string {
  return `mutant:${id}`;
}

/** Hits of a mutant's code a run may make before its switch throws (Stryker's hit limit): 100 times what the trace saw. */
export function hitLimit(traced: number | undefined): number {
  return Math.max(10_000, 100 * (traced ?? 0));
}

function clean(r: { kind: string }): r is RunReply {
  const x = r as RunReply;
  return x.kind === 'ran' && x.obs.settled && !x.guard.length && !x.net && !x.uncaught.length;
}

/** A child on the instrumented code, replaced after a run that hung, crashed or left work pending; it counts its runs. */
export class MutantChild {
  runs = 0;
  private opened?: Awaited<ReturnType<typeof SearchChild.open>>;
  private readonly job: ChildJob;

  constructor(job: ChildJob, overrides: Record<string, string>) {
    this.job = { ...job, overrides: { ...job.overrides, ...overrides }, noCoverage: true };
  }

  /** The run with no mutant on, and the mutants it reached (id → hits); undefined when it did not run cleanly. */
  async trace(seq: Sequence, seed: number): Promise<{ obs: Observation; reached: Record<string, number> } | undefined> {
    const r = await this.run(seq, seed, { trace: true });
    return r && clean(r) ? { obs: r.obs, reached: r.reached ?? {} } : undefined;
  }

  /** The facts a test of `seq` would notice with the mutant on (empty: it survives this sequence). */
  async notice(seq: Sequence, seed: number, mutant: string, base: Facts, limit: number): Promise<string[]> {
    const r = await this.run(seq, seed, { mutant, hitLimit: limit });
    if (!r || r.kind !== 'ran' || r.uncaught.length || r.guard.length || r.net) return noticedBy(base, undefined);
    return noticedBy(base, factsOf(r.obs));
  }

  close(): void {
    this.opened?.child.close();
    this.opened = undefined;
  }

  private async run(seq: Sequence, seed: number, opts: { mutant?: string; hitLimit?: number; trace?: boolean }) {
    this.runs++;
    this.opened ??= await SearchChild.open(this.job);
    if (!this.opened.discovery) return undefined;
    const r = await this.opened.child.run(seq, seed, opts);
    if (r.kind !== 'ran' || !r.obs.settled) this.close();
    return r;
  }
}

/**
 * For each sequence id, the goals of the mutants it kills (every given mutant against every given
 * sequence). `baseline` is what each observed on the original code.
 */
export async function killedMutants(
  job: ChildJob,
  sequences: readonly { seq: Sequence; baseline: Observation }[],
  run: MutantRun,
  seed: number,
): Promise<Map<string, string[]>> {
  const kills = new Map<string, string[]>(sequences.map((s) => [s.seq.id, []]));
  const child = new MutantChild(job, run.overrides);
  try {
    for (const id of run.mutants)
      for (const s of sequences)
        if ((await child.notice(s.seq, seed, id, factsOf(s.baseline), hitLimit(undefined))).length)
          kills.get(s.seq.id)!.push(mutantGoal(id));
  } finally {
    child.close();
  }
  return kills;
}
