// The time budget of the search, turned into a count of runs per module before anything runs, so
// what is kept never depends on how fast the machine is: the budget in seconds times a notional rate
// (runs per second of the reference machine, 2 cores), shared by the modules in proportion to their
// weight (exported symbols), within a floor and a ceiling per module. A wall-clock limit (a multiple
// of the budget) only guards against a machine far slower than the reference; when it cuts, the
// summary says so, since those runs then depend on the clock.
export const DEFAULT_SEARCH_BUDGET_SECONDS = 60;
/** runs per second the reference machine (2 cores, two children) completes on typical modules */
const RUNS_PER_SECOND = 250;
export const MIN_RUNS = 80;
export const MAX_RUNS = 4000;
/** the wall-clock safety net, as a multiple of the budget */
export const CLOCK_FACTOR = 3;
/** ... and never less than this: a small budget on a busy machine is not "far slower than the reference" */
const MIN_CLOCK_SECONDS = 120;

/** The wall-clock safety stop of a stage's search, in seconds, for a budget in seconds. */
export function safetyClockSeconds(budgetSeconds: number): number {
  return Math.max(MIN_CLOCK_SECONDS, budgetSeconds * CLOCK_FACTOR);
}

/** Runs per module, in the modules' order. */
export function runsPerModule(budgetSeconds: number, weights: readonly number[]): number[] {
  const total = Math.max(0, budgetSeconds) * RUNS_PER_SECOND;
  const sum = weights.reduce((s, w) => s + Math.max(1, w), 0);
  return weights.map((w) => Math.min(MAX_RUNS, Math.max(MIN_RUNS, Math.round((total * Math.max(1, w)) / Math.max(1, sum)))));
}
