// Characterizes one module: every candidate input is called twice, in two separate children; only
// results that agree (same value, or same error name and message) are kept, so output that depends on
// time, randomness or object identity is dropped. Of those, greedy selection keeps the calls that add
// covered lines. Each kept call becomes a case whose oracle is the observed behaviour.
import { candidateInputs, type InputSeed } from './inputs';
import { runInSandbox, DEFAULT_LIMITS, type CallResult, type Coverage, type SandboxCall, type SandboxLimits } from './sandbox';
import { greedySelect } from './select';
import { isScalar, sameTagged, tag, type Tagged } from './values';

export interface CharTarget extends InputSeed {
  /** export path, e.g. ["slugify"] or ["default", "parse"] */
  path: string[];
}

export type CharOracle =
  | { kind: 'equals' | 'deep_equals'; value: Tagged }
  /** `iterated`: a Python generator that raises once iterated, so the test calls list(...) */
  | { kind: 'throws'; errorName: string; message: string; iterated?: boolean };

export interface CharCase extends Coverage {
  id: string;
  path: string[];
  args: Tagged[];
  oracle: CharOracle;
}

export interface ModuleCharacterization {
  module: string;
  cases: CharCase[];
  /** calls whose two runs agreed (before greedy selection) */
  stable: number;
  /** calls dropped because two runs disagreed */
  unstable: number;
  /** calls dropped for a timeout, a crash or a value that cannot be pinned */
  unusable: number;
  /** all lines the stable calls covered (the kept cases cover the same set) */
  lines: number;
}

function agree(a: CallResult | undefined, b: CallResult | undefined): boolean {
  if (!a || !b || a.kind !== b.kind) return false;
  if (a.kind === 'return' && b.kind === 'return') return sameTagged(a.value, b.value);
  if (a.kind === 'throw' && b.kind === 'throw') return a.name === b.name && a.message === b.message && a.iterated === b.iterated;
  return false;
}

function callsFor(targets: readonly CharTarget[], maxPerTarget: number): SandboxCall[] {
  const calls: SandboxCall[] = [];
  for (const t of targets) {
    candidateInputs(t, maxPerTarget).forEach((args, i) => {
      try {
        calls.push({ id: `${t.path.join('.')}#${i}`, path: t.path, args: args.map(tag) });
      } catch {
        // an example argument that cannot cross to the child (a function, a class instance) is skipped
      }
    });
  }
  return calls;
}

export async function characterizeModule(
  modulePath: string,
  root: string,
  targets: readonly CharTarget[],
  opts: { limits?: SandboxLimits; maxPerTarget?: number; signal?: AbortSignal } = {},
): Promise<ModuleCharacterization> {
  const limits = opts.limits ?? DEFAULT_LIMITS;
  const calls = callsFor(targets, opts.maxPerTarget ?? 80);
  const first = await runInSandbox(modulePath, root, calls, limits, opts.signal);
  // The second run goes in reverse order, so a result that depends on what earlier calls left behind
  // (a counter, a cache) differs between the runs and is dropped.
  const second = await runInSandbox(modulePath, root, [...calls].reverse(), limits, opts.signal);
  return keepStable(modulePath, calls, first, second);
}

/** Keeps the calls whose two runs agree, then the greedy selection of them (shared with python/characterize.ts). */
export function keepStable(
  modulePath: string,
  calls: readonly SandboxCall[],
  first: CallResult[],
  second: CallResult[],
): ModuleCharacterization {
  const byId = new Map(second.map((r) => [r.id, r]));
  const stable: CharCase[] = [];
  let unstable = 0;
  let unusable = 0;
  calls.forEach((call, i) => {
    const a = first[i];
    const b = byId.get(call.id);
    if (!a || (a.kind !== 'return' && a.kind !== 'throw')) {
      if (a?.kind === 'unpinnable' && a.varies) unstable++;
      else unusable++;
      return;
    }
    if (!agree(a, b)) {
      unstable++;
      return;
    }
    const oracle: CharOracle =
      a.kind === 'return'
        ? { kind: isScalar(a.value) ? 'equals' : 'deep_equals', value: a.value }
        : { kind: 'throws', errorName: a.name, message: a.message, ...(a.iterated ? { iterated: true } : {}) };
    stable.push({
      id: call.id,
      path: call.path,
      args: call.args,
      oracle,
      lines: a.lines,
      spans: a.spans,
      ...(a.arcs ? { arcs: a.arcs } : {}),
    });
  });
  const lines = new Set(stable.flatMap((c) => c.lines)).size;
  return { module: modulePath, cases: greedySelect(stable), stable: stable.length, unstable, unusable, lines };
}
