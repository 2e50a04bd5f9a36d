// Mutation analysis in the run record (docs/mutation.md): its settings and what it found. Types and
// defaults only, like run.ts.

export interface MutationParams {
  enabled: boolean;
  /** wall-clock budget of the mutation phase; what it does not reach is reported as not run */
  budgetSeconds: number;
  /** the budget is the default one, so it may be shortened for the run to end in time (fittedBudget) */
  fitsRun?: boolean;
}

/** On whenever verification runs: the keep rule and the score need it, and a budget bounds its cost (docs/mutation.md). */
export const DEFAULT_MUTATION: MutationParams = { enabled: true, budgetSeconds: 60 };

/** A run's mutation setting from an on/off switch and a budget in seconds (the CLI's flags, VS Code's settings); unset or invalid: the default. */
export function mutationParams(enabled: boolean | undefined, budgetSeconds: number | undefined): MutationParams {
  const given = !!budgetSeconds && budgetSeconds > 0;
  return {
    enabled: enabled !== false,
    budgetSeconds: given ? budgetSeconds : DEFAULT_MUTATION.budgetSeconds,
    ...(given ? {} : { fitsRun: true }),
  };
}

/** A default run of a 50-module package ends within two minutes on the reference machine (issue 22). */
export const RUN_TARGET_SECONDS = 120;
/**
 * what follows mutation on such a package (keep filter, rewrite, confirm: 10 s on node-forge) and what
 * the stages' times leave out (start-up, saving the record: 3 s)
 */
const AFTER_MUTATION_SECONDS = 15;
/** a shortened default budget never goes below this: the keep rule still needs kills */
export const MIN_FITTED_MUTATION_SECONDS = 20;

/**
 * The mutation phase's budget once `elapsedSeconds` of the run's work are done: a budget the person
 * gave is kept as given; the default one is shortened, to no less than MIN_FITTED_MUTATION_SECONDS,
 * so the run ends within RUN_TARGET_SECONDS. Small packages reach mutation early and keep it whole,
 * and so do runs that already took RUN_TARGET_SECONDS.
 */
export function fittedBudget(params: MutationParams, elapsedSeconds: number): { seconds: number; shortened?: string } {
  // A run that took two minutes before mutation ends late whatever the phase gets: shortening it
  // would only cost the keep rule its kills and the score its meaning (tinycolor2: 14 s, 0%).
  if (!params.fitsRun || elapsedSeconds >= RUN_TARGET_SECONDS) return { seconds: params.budgetSeconds };
  const room = Math.floor(RUN_TARGET_SECONDS - AFTER_MUTATION_SECONDS - elapsedSeconds);
  const seconds = Math.min(params.budgetSeconds, Math.max(MIN_FITTED_MUTATION_SECONDS, room));
  if (seconds >= params.budgetSeconds) return { seconds };
  return {
    seconds,
    shortened: `the default ${params.budgetSeconds} s budget, shortened to ${seconds} s: the run had worked ${Math.round(elapsedSeconds)} s before mutation, and a default run aims to end within ${RUN_TARGET_SECONDS} s (--mutation-budget keeps a budget as given)`,
  };
}

/** The run record keeps at most this many surviving mutants (the counts are always whole). */
export const MAX_SURVIVORS = 2000;

/** Mutants by what happened to them. */
export interface MutationCounts {
  mutants: number;
  killed: number;
  /** killed by running too long or looping (counted as killed) */
  timeout: number;
  survived: number;
  /** no test reaches them (counted as survived) */
  noCoverage: number;
  /** could not be run (never in the score) */
  error: number;
  /** the budget did not reach them */
  notRun: number;
  /** equivalent-mutant noise, never run: in logging, dead code, error message text */
  filtered: number;
}

/** A mutant that no kept test kills: where it is and what it changes (diagnostics, the LLM rounds). */
export interface SurvivingMutant {
  id: string;
  file: string;
  mutator: string;
  original: string;
  replacement: string;
  /** 1-based lines and columns */
  start: { line: number; column: number };
  end: { line: number; column: number };
  status: 'survived' | 'no_coverage';
  /** case ids of the tests that reach it */
  coveredBy: string[];
}

export interface MutationRecord {
  status: 'done' | 'skipped';
  reason?: string;
  tool?: string;
  budgetSeconds: number;
  /** why the budget is shorter than the default (fittedBudget) */
  budgetNote?: string;
  seconds: number;
  /** killed / (killed + survived + no coverage) in percent, one decimal; absent when no mutant counts */
  score?: number;
  counts: MutationCounts;
  files: { file: string; score?: number; counts: MutationCounts }[];
  /** files under test that were not mutated, with why */
  notMutated: { file: string; reason: string }[];
  /** mutants the budget did not reach, per file and why (budget, static) */
  notRun: { file: string; mutants: number; reason: string }[];
  /** filtered mutants per reason */
  filtered: Record<string, number>;
  /** case id → the ids of the mutants that test kills (every killer of every mutant, not only the first) */
  kills: Record<string, string[]>;
  /** tests not run against mutants (judged by coverage alone), with why */
  excludedTests: { caseId: string; reason: string }[];
  /** survived and no_coverage mutants (at most MAX_SURVIVORS; `survivorsOmitted` counts the rest) */
  survivors: SurvivingMutant[];
  survivorsOmitted?: number;
  /** runner invocations the mutation phase made */
  executions: number;
}

/** What the VS Code client gets (RunView.verification.mutation): the score per file and the survivors, without the kill lists. */
export type MutationView = Pick<
  MutationRecord,
  'status' | 'reason' | 'score' | 'seconds' | 'budgetSeconds' | 'budgetNote' | 'files' | 'notRun' | 'survivors'
>;
