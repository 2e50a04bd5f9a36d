// Runs the planned mutants within the budget (docs/mutation.md), through a language's backend:
// - in-process mutants in batches, each batch ONE runner invocation that switches its mutants one
//   after another; a batch is sized to what is left of the budget, and the estimate of a test's cost
//   is corrected after every batch from what the batch really took;
// - an invocation that is killed (a mutant hung its test in a way no in-process limit caught) keeps
//   what its tests finished; the mutant it hung on is a timeout (killed), and the rest of the batch
//   runs again (cut in halves where the processes could not say what they ran);
// - no invocation runs past the budget: one the budget stops leaves its unfinished mutants not run;
// - static mutants (reached while modules load) last: first those whose round reloads the modules in
//   process, then those that need one invocation each, with what budget is left.
// What the budget does not reach is `not_run`, with the reason.
import type { PlannedMutant } from './rounds';

export type TestOutcome = 'killed' | 'timeout' | 'survived';

export interface BatchRun {
  /** per mutant and test, what happened; a pair with no entry did not run */
  results: { mutant: string; test: string; outcome: TestOutcome }[];
  /** the invocation was killed at its time limit */
  timedOut: boolean;
  /** when it was killed: the mutants its processes were running then (their tests hung) */
  hung?: string[];
  /** it was killed by the stall watch (a test hung), not at its time limit */
  stalled?: boolean;
  elapsedMs: number;
}

export interface Backend {
  runBatch(batch: PlannedMutant[], timeoutMs: number): Promise<BatchRun>;
  runStatic(mutant: PlannedMutant, timeoutMs: number): Promise<BatchRun>;
}

export interface ScheduleLimits {
  /** when the budget ends (ms since the epoch) */
  deadline: number;
  /** one runner invocation's cost before its first test (from the coverage round) */
  startupMs: number;
  /** the cost of running one test once, beyond its own time, first guess */
  perTestMs: number;
  /** hard limit of one invocation */
  invocationTimeoutMs: number;
  now?: () => number;
  /** progress lines (each invocation: what it ran and how long it took) */
  info?: (message: string) => void;
}

export interface ScheduleResult {
  results: BatchRun['results'];
  /** mutants whose whole invocation hung even alone: killed by a timeout of every test that reaches them */
  hung: string[];
  notRun: Map<string, string>;
  invocations: number;
}

const MIN_BATCH_MS = 5000;

export async function schedule(backend: Backend, planned: PlannedMutant[], limits: ScheduleLimits): Promise<ScheduleResult> {
  const now = limits.now ?? Date.now;
  const out: ScheduleResult = { results: [], hung: [], notRun: new Map(), invocations: 0 };
  let perTest = limits.perTestMs;
  const cost = (m: PlannedMutant) => m.costMs + perTest * m.tests.length;
  const queue: PlannedMutant[][] = [];
  // Static mutants cost a module reload each (fresh) or a process each: the others go first.
  const inProcess = [...planned.filter((m) => !m.static), ...planned.filter((m) => m.static && m.fresh)];
  const total = inProcess.reduce((n, m) => n + cost(m), 0);
  // A few batches: a hang costs one batch, and the estimate is corrected between them.
  const target = Math.max(MIN_BATCH_MS, total / 3);
  let rest = inProcess;
  while (rest.length) {
    const left = limits.deadline - now() - limits.startupMs;
    const batch = take(rest, Math.min(target, left), cost);
    if (!batch.length) break;
    rest = rest.slice(batch.length);
    queue.push(batch);
    while (queue.length) {
      if (limits.deadline - now() <= limits.startupMs) {
        for (const q of queue.splice(0)) for (const m of q) out.notRun.set(m.id, 'budget');
        break;
      }
      const b = queue.shift()!;
      const est = b.reduce((n, m) => n + cost(m), 0);
      const limit = invocationLimit(limits, est);
      const run = await backend.runBatch(b, limit.ms);
      out.invocations++;
      limits.info?.(
        `mutation: batch of ${b.length} mutant(s), ${run.results.length} test run(s) in ${Math.round(run.elapsedMs)} ms (estimated ${Math.round(est + limits.startupMs)})${run.timedOut ? ', killed at its time limit' : ''}`,
      );
      out.results.push(...run.results);
      if (!run.timedOut) {
        const execs = run.results.length || 1;
        perTest = Math.max(0.2, (run.elapsedMs - limits.startupMs - b.reduce((n, m) => n + m.costMs, 0)) / execs);
        continue;
      }
      if (limit.byBudget && !run.stalled) {
        // The budget ran out in this batch: what it did not finish is not run (never a timeout).
        for (const m of [...unfinished(b, run), ...queue.splice(0).flat()]) out.notRun.set(m.id, 'budget');
        break;
      }
      queue.unshift(...afterHang(b, run, out));
    }
  }
  for (const m of rest) out.notRun.set(m.id, 'budget');
  await runStatics(backend, planned, limits, out, cost);
  return out;
}

/**
 * A killed invocation: the mutants it was running are timeouts (killed), and the rest of the batch runs
 * again; where the processes could not say what they ran, the batch is cut in halves instead.
 */
function afterHang(b: PlannedMutant[], run: BatchRun, out: ScheduleResult): PlannedMutant[][] {
  const open = unfinished(b, run);
  const hung = new Set((run.hung ?? []).filter((id) => open.some((m) => m.id === id)));
  if (hung.size || open.length === 1) {
    const ids = hung.size ? hung : new Set([open[0].id]);
    out.hung.push(...ids);
    const rest = open.filter((m) => !ids.has(m.id));
    return rest.length ? [rest] : [];
  }
  if (!open.length) return [];
  const half = Math.ceil(open.length / 2);
  return [open.slice(0, half), open.slice(half)];
}

/**
 * The mutants of a killed invocation still to decide: neither killed by a test that ended nor run
 * with all their tests (the runtime logs each test that ends, so a kill keeps what finished), and
 * those its processes were running when it was killed.
 */
function unfinished(b: PlannedMutant[], run: BatchRun): PlannedMutant[] {
  const ended = new Set(run.results.map((r) => `${r.mutant}\n${r.test}`));
  const killed = new Set(run.results.filter((r) => r.outcome !== 'survived').map((r) => r.mutant));
  const hung = new Set(run.hung ?? []);
  return b.filter((m) => hung.has(m.id) || (!killed.has(m.id) && m.tests.some((t) => !ended.has(`${m.id}\n${t}`))));
}

/** As many mutants (in order) as fit `ms`; always at least one when one fits. */
function take(rest: PlannedMutant[], ms: number, cost: (m: PlannedMutant) => number): PlannedMutant[] {
  const batch: PlannedMutant[] = [];
  let sum = 0;
  for (const m of rest) {
    if (sum + cost(m) > ms) break;
    sum += cost(m);
    batch.push(m);
  }
  return batch;
}

/**
 * A hung test is caught by the stall watch (stall.ts) within seconds; this limit only bounds a batch
 * that is slow without hanging (mutants that make a test loop to its hit limit or backtrack long):
 * three times its estimate, at least 10 s, but never past the budget (`byBudget`: the budget set it).
 */
function invocationLimit(limits: ScheduleLimits, estimateMs: number): { ms: number; byBudget: boolean } {
  const now = limits.now ?? Date.now;
  const left = Math.max(1000, limits.deadline - now());
  const wanted = Math.min(limits.invocationTimeoutMs, Math.max(10_000, 3 * (estimateMs + limits.startupMs)));
  return wanted > left ? { ms: left, byBudget: true } : { ms: wanted, byBudget: false };
}

async function runStatics(
  backend: Backend,
  planned: PlannedMutant[],
  limits: ScheduleLimits,
  out: ScheduleResult,
  cost: (m: PlannedMutant) => number,
): Promise<void> {
  const now = limits.now ?? Date.now;
  for (const m of planned.filter((x) => x.static && !x.fresh)) {
    if (limits.deadline - now() < limits.startupMs + cost(m)) {
      out.notRun.set(m.id, 'static');
      continue;
    }
    const run = await backend.runStatic(m, invocationLimit(limits, cost(m)).ms);
    out.invocations++;
    out.results.push(...run.results);
    if (run.timedOut && !run.results.some((r) => r.mutant === m.id)) out.hung.push(m.id);
  }
}
