// Running workspace code to characterize it is the same high-risk action as running its tests, so
// it goes through the gateway as `tests.run`: one approval covers the whole characterization run
// (and a person who already approved running the tests is not asked about the same code twice).
// Refused, deferred (no TTY, no --yes) or in Restricted Mode: nothing runs and no case is written.
// Approved, the modules run in a small pool (each in its own children), each saved as it ends.
import type { Gateway } from '../gateway/gateway';

export interface ModuleJob<T> {
  /** absolute path of the module file */
  modulePath: string;
  /** characterizes the module (the search for JavaScript and TypeScript, the Python characterizer for Python) */
  run: (signal?: AbortSignal) => Promise<T>;
}

export type CharRunResult<T> = { ran: true; modules: T[] } | { ran: false; decision: string };

export async function characterizeApproved<T>(
  gateway: Gateway,
  root: string,
  jobs: readonly ModuleJob<T>[],
  opts: {
    /** false in Restricted Mode; asked again right before anything runs (trust can be revoked while an approval waits) */
    trusted: boolean | (() => boolean);
    /** a stable id, so `amtp approve` decides this same request and the resumed run finds it */
    approvalId?: string;
    /** what the person is asked to approve (the default names characterization alone) */
    summary?: string;
    signal?: AbortSignal;
    /** modules run at once (default 1) */
    concurrency?: number;
    done?: (job: ModuleJob<T>, result: T) => Promise<void> | void;
    skip?: ReadonlySet<string>;
  },
): Promise<CharRunResult<T>> {
  const trusted = () => (typeof opts.trusted === 'function' ? opts.trusted() : opts.trusted);
  if (!trusted()) return { ran: false, decision: 'restricted' };
  const todo = jobs.filter((j) => !opts.skip?.has(j.modulePath));
  if (todo.length === 0) return { ran: true, modules: [] };
  const result = await gateway.execute(
    'tests.run',
    {
      summary:
        opts.summary ?? `run ${todo.length} workspace module(s) in a sandbox to pin their current behaviour (characterization tests)`,
      target: root,
      approvalId: opts.approvalId,
    },
    async () => {
      if (!trusted()) return undefined;
      return pool(todo, Math.max(1, opts.concurrency ?? 1), opts.signal, opts.done);
    },
  );
  if (!result.ran) return { ran: false, decision: result.approval.decision };
  return result.value ? { ran: true, modules: result.value } : { ran: false, decision: 'restricted' };
}

/** Runs the jobs, at most `width` at once, in their order; results in job order. */
async function pool<T>(
  jobs: readonly ModuleJob<T>[],
  width: number,
  signal: AbortSignal | undefined,
  done: ((job: ModuleJob<T>, result: T) => Promise<void> | void) | undefined,
): Promise<T[]> {
  const results: (T | undefined)[] = [];
  let next = 0;
  const worker = async () => {
    while (next < jobs.length && !signal?.aborted) {
      const i = next++;
      const r = await jobs[i].run(signal);
      if (signal?.aborted) break; // a module cut short is not finished: a resume runs it again
      // Saved per module, so a crash mid-run resumes without redoing finished modules (`skip`).
      await done?.(jobs[i], r);
      results[i] = r;
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, jobs.length) }, worker));
  return results.filter((r): r is T => r !== undefined);
}
