// A mutant can hang its runner process where no limit inside it reaches (a regular expression that
// backtracks for ever, a loop that never passes the mutant's switch): the test never ends and the
// process never reports. Each test writes what it runs to a progress file (the JS runtime, the pytest
// plugin); this watchdog polls those files and, when one names the same mutant and test for longer
// than the stall limit, stops the invocation and says which mutant it was.

export interface StallWatch {
  /** aborts the invocation (its whole process group) when a test stalls */
  signal: AbortSignal;
  /** the mutants whose tests stalled (set once the watch fired) */
  stalled(): string[];
  stop(): void;
}

const POLL_MS = 250;
const MAX_STALL_MS = 15_000;

/** A test of the batch that has not ended this long after its round's own time limit is hung (a timeout: killed). */
export function stallLimit(batch: { timeoutMs: number }[]): number {
  return Math.min(MAX_STALL_MS, Math.max(...batch.map((m) => m.timeoutMs)) + 2000);
}

/** Watches `read()` (the current "mutant\ntest" of each process; '' between tests); `outer` cancels as well. */
export function watchStalls(read: () => string[], stallMs: number, outer?: AbortSignal): StallWatch {
  const local = new AbortController();
  const since = new Map<string, number>();
  let fired: string[] = [];
  const timer = setInterval(() => {
    const now = Date.now();
    const current = new Set(read().filter((t) => t !== ''));
    for (const key of [...since.keys()]) if (!current.has(key)) since.delete(key);
    for (const key of current) if (!since.has(key)) since.set(key, now);
    const stuck = [...since].filter(([, t]) => now - t > stallMs).map(([key]) => key.split('\n')[0]);
    if (stuck.length && !local.signal.aborted) {
      fired = stuck;
      local.abort();
    }
  }, POLL_MS);
  timer.unref();
  return {
    signal: outer ? AbortSignal.any([outer, local.signal]) : local.signal,
    stalled: () => fired,
    stop: () => clearInterval(timer),
  };
}
