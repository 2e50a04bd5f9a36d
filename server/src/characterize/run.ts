// Running workspace code to characterize it is the same high-risk action as running its tests, so
// it goes through the gateway as `tests.run`: one approval covers the whole characterization run
// (and a person who already approved running the tests is not asked about the same code twice).
// Refused, deferred (no TTY, no --yes) or in Restricted Mode: nothing runs and no case is written.
import type { Gateway } from '../gateway/gateway';
import { characterizeModule, type CharTarget, type ModuleCharacterization } from './characterize';
import type { Characterizer } from './language';
import type { SandboxLimits } from './sandbox';

export interface ModuleJob {
  /** absolute path of the module file */
  modulePath: string;
  targets: CharTarget[];
  /** the engine for the module's language (language.ts); JavaScript's by default */
  characterizer?: Characterizer;
}

export type CharRunResult = { ran: true; modules: ModuleCharacterization[] } | { ran: false; decision: string };

export async function characterizeApproved(
  gateway: Gateway,
  root: string,
  jobs: readonly ModuleJob[],
  opts: {
    /** false in Restricted Mode; asked again right before anything runs (trust can be revoked while an approval waits) */
    trusted: boolean | (() => boolean);
    /** a stable id, so `amtp approve` decides this same request and the resumed run finds it */
    approvalId?: string;
    /** what the person is asked to approve (the default names characterization alone) */
    summary?: string;
    limits?: SandboxLimits;
    signal?: AbortSignal;
    done?: (m: ModuleCharacterization) => Promise<void> | void;
    skip?: ReadonlySet<string>;
  },
): Promise<CharRunResult> {
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
      const modules: ModuleCharacterization[] = [];
      if (!trusted()) return undefined;
      for (const j of todo) {
        if (opts.signal?.aborted) break;
        const run = j.characterizer ?? characterizeModule;
        const m = await run(j.modulePath, root, j.targets, { limits: opts.limits, signal: opts.signal });
        if (opts.signal?.aborted) break; // a module cut short is not finished: a resume runs it again
        // Saved per module, so a crash mid-run resumes without redoing finished modules (`skip`).
        await opts.done?.(m);
        modules.push(m);
      }
      return modules;
    },
  );
  if (!result.ran) return { ran: false, decision: result.approval.decision };
  return result.value ? { ran: true, modules: result.value } : { ran: false, decision: 'restricted' };
}
