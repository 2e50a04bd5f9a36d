// What characterizing a Python module (python/characterize.ts) keeps: every candidate input is called
// twice, in two separate children; only results that agree (same value, or same error name and
// message) are kept, so output that depends on time, randomness or object identity is dropped. Of
// those, greedy selection keeps the calls that add covered lines. Each kept call becomes a case whose
// oracle is the observed behaviour. (JavaScript and TypeScript modules get the search of call
// sequences instead: server/src/search/.)
import type { InputSeed } from './inputs';
import type { CallResult, Coverage, SandboxCall } from './sandbox';
import { greedySelect } from './select';
import { isScalar, sameTagged, type Tagged } from './values';

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
  /** the wall-clock safety stop ended the search before its count of tries */
  cutByClock?: boolean;
}

function agree(a: CallResult | undefined, b: CallResult | undefined): boolean {
  if (!a || !b || a.kind !== b.kind) return false;
  if (a.kind === 'return' && b.kind === 'return') return sameTagged(a.value, b.value);
  if (a.kind === 'throw' && b.kind === 'throw') return a.name === b.name && a.message === b.message && a.iterated === b.iterated;
  return false;
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
