// Characterizes one Python module: the stage runs its call sequences (sequence.ts); the single calls
// (every candidate input called twice, in two separate CPython children; results that differ between
// the runs are dropped, and greedy selection keeps the calls that add covered lines or branches)
// remain for the sandbox's own tests. The result is ../characterize.ts's ModuleCharacterization.
import type { CharTarget, ModuleCharacterization } from '../characterize';
import { DEFAULT_LIMITS, type SandboxCall, type SandboxLimits } from '../sandbox';
import { tag, type Tagged } from '../values';
import { pyCandidateInputs } from './inputs';
import { characterizePythonSequences } from './sequence';

/** JavaScript's undefined has no Python counterpart: it is None, and an argument list that then repeats another is dropped. */
function asPython(v: Tagged): Tagged {
  if (Array.isArray(v)) return v.map(asPython);
  if (v !== null && typeof v === 'object' && v.$ === 'undef') return null;
  if (v !== null && typeof v === 'object' && v.$ === 'obj')
    return { $: 'obj', v: Object.fromEntries(Object.entries(v.v).map(([k, x]) => [k, asPython(x)])) };
  return v;
}

export function pythonCalls(targets: readonly CharTarget[], maxPerTarget: number): SandboxCall[] {
  const calls: SandboxCall[] = [];
  for (const t of targets) {
    const seen = new Set<string>();
    pyCandidateInputs(t, maxPerTarget).forEach((args, i) => {
      let tagged: Tagged[];
      try {
        tagged = args.map((a) => asPython(tag(a)));
      } catch {
        return; // an example argument that cannot cross to the child
      }
      const key = JSON.stringify(tagged);
      if (seen.has(key)) return;
      seen.add(key);
      calls.push({ id: `${t.path.join('.')}#${i}`, path: t.path, args: tagged });
    });
  }
  return calls;
}

/**
 * A Python module's characterization: feedback-directed call sequences over its classes and
 * functions (sequence.ts). The single calls of `pythonCalls` remain for the sandbox's own tests.
 */
export async function characterizePythonModule(
  modulePath: string,
  root: string,
  targets: readonly CharTarget[],
  opts: { limits?: SandboxLimits; maxPerTarget?: number; signal?: AbortSignal; python?: string; mutation?: boolean } = {},
): Promise<ModuleCharacterization> {
  return characterizePythonSequences(modulePath, root, targets, {
    limits: opts.limits ?? DEFAULT_LIMITS,
    signal: opts.signal,
    python: opts.python,
    mutation: opts.mutation,
  });
}
