// Running workspace code to characterize it is the same high-risk action as running its tests, so
// it goes through the gateway as `tests.run`: one approval covers the whole characterization run
// (and a person who already approved running the tests is not asked about the same code twice).
// Refused, deferred (no TTY, no --yes) or in Restricted Mode: nothing runs and no case is written.
import type { Gateway } from '../gateway/gateway';
import { characterizeModule, type CharTarget, type ModuleCharacterization } from './characterize';
import type { SandboxLimits } from './sandbox';

export interface ModuleJob {
  modulePath: string;
  targets: CharTarget[];
}

export type CharRunResult = { ran: true; modules: ModuleCharacterization[] } | { ran: false; decision: string };

export async function characterizeApproved(
  gateway: Gateway,
  root: string,
  jobs: readonly ModuleJob[],
  opts: {
    trusted: boolean;
    limits?: SandboxLimits;
    signal?: AbortSignal;
    done?: (m: ModuleCharacterization) => Promise<void> | void;
    skip?: ReadonlySet<string>;
  },
): Promise<CharRunResult> {
  if (!opts.trusted) return { ran: false, decision: 'restricted' };
  const todo = jobs.filter((j) => !opts.skip?.has(j.modulePath));
  if (todo.length === 0) return { ran: true, modules: [] };
  const result = await gateway.execute(
    'tests.run',
    {
      summary: `run ${todo.length} workspace module(s) in a sandbox to pin their current behaviour (characterization tests)`,
      target: root,
    },
    async () => {
      const modules: ModuleCharacterization[] = [];
      for (const j of todo) {
        const m = await characterizeModule(j.modulePath, root, j.targets, { limits: opts.limits, signal: opts.signal });
        // Saved per module, so a crash mid-run resumes without redoing finished modules (`skip`).
        await opts.done?.(m);
        modules.push(m);
      }
      return modules;
    },
  );
  return result.ran ? { ran: true, modules: result.value } : { ran: false, decision: result.approval.decision };
}
