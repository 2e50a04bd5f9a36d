// Python characterization by feedback-directed call sequences: one child searches (builds
// sequences from the module's classes and functions, runs them traced, keeps those that reach
// new lines or arcs, or raise a new exception: amtp_char_seqrun.py), a second child replays the
// kept ones in reverse order, and only those whose two runs agree are pinned (time, randomness,
// hash order, state left behind by earlier sequences). Greedy set cover over lines and arcs then
// keeps the fewest that cover the same. The result is the stage's ModuleCharacterization (../characterize.ts).
import type { CharCase, CharOracle, CharTarget, ModuleCharacterization } from '../characterize';
import { CLOCK_FACTOR } from '../../search/budget';
import { FIXED_SEED } from '../inputs';
import { DEFAULT_LIMITS, type SandboxLimits } from '../sandbox';
import { greedySelect } from '../select';
import { isScalar, sameTagged, tag, type Tagged } from '../values';
import { runSequenceChild } from './searchChild';

export type PyArg = { lit: Tagged } | { ref: string } | { cb: { name: string; returns: string } };

export interface PyStep {
  var?: string;
  /** `a1 = [3, 1, 2]`: a list or dict argument the sequence changed, bound to a name so its test can check it */
  lit?: Tagged;
  /** a module function or class, by its path in the module */
  fn?: string[];
  /** a method call on an earlier step's value */
  recv?: string;
  method?: string;
  args: PyArg[];
  kwargs: Record<string, PyArg>;
}

export interface PySequence {
  id: string;
  /** the class or function of the module the sequence exercises */
  target: string;
  steps: PyStep[];
}

interface PyCheck {
  expr: string;
  value: Tagged;
}

type Outcome =
  | { kind: 'return'; value: Tagged }
  /** the last step's value is an object: `expr` (repr(r1), len(obj), obj.size) is its first observer */
  | { kind: 'observe'; expr: string; value: Tagged }
  | { kind: 'throw'; name: string; message: string; own: boolean; iterated?: boolean }
  | { kind: 'unpinnable'; why: string; varies?: boolean };

export type PyRow = PySequence &
  Outcome & {
    checks?: PyCheck[];
    lines?: string[];
    arcs?: string[];
    /** it made files in its sandbox folder: its test runs in tmp_path */
    fs?: boolean;
    /** the last step returned an endless iterator: its first `take` items are pinned */
    take?: number;
    /** mutants it kills that no sequence kept for coverage kills (the mutation phase added it for them) */
    mutants?: string[];
  };

export interface PySearchSpec {
  seed: number;
  /** the wall-clock safety stop of the whole search (ms): the count of tries is the bound */
  clockMs: number;
  /** sequences tried per target: what bounds the search, so every run and machine tries the same */
  tries: number;
  /** runs of the mutation phase (amtp_char_seqmut.py), a count like `tries`; 0: coverage alone */
  mutationRuns: number;
  targets: { name: string; examples?: Tagged[][] }[];
}

/** A kept sequence as the case the renderers take, as server/src/search/case.ts makes them for JavaScript (case.ts reads `seq`). */
export type PySeqCase = CharCase & { seq: PyRow };

/**
 * The wall-clock safety stop per module: the per-call timeout times four (what the search used to be
 * given, 8 s by default) times the search's CLOCK_FACTOR. Only a machine far slower than the
 * reference reaches it; the module then says so (`cut_by_clock`).
 */
function safetyClockMs(limits: SandboxLimits): number {
  return limits.callTimeoutMs * 4 * CLOCK_FACTOR;
}

function examplesOf(t: CharTarget): Tagged[][] {
  const out: Tagged[][] = [];
  for (const ex of t.examples ?? []) {
    try {
      out.push(ex.map((a) => (a === undefined ? null : tag(a))));
    } catch {
      /* an example argument that cannot cross to the child */
    }
  }
  return out;
}

function outcomeKey(r: PyRow): string {
  const { kind } = r;
  if (kind === 'return') return JSON.stringify([kind, r.value, r.checks ?? []]);
  if (kind === 'observe') return JSON.stringify([kind, r.expr, r.value, r.checks ?? []]);
  if (kind === 'throw') return JSON.stringify([kind, r.name, r.message, r.iterated ?? false, r.checks ?? []]);
  return 'unpinnable';
}

function oracleOf(r: PyRow): CharOracle | undefined {
  if (r.kind === 'return') return { kind: isScalar(r.value) ? 'equals' : 'deep_equals', value: r.value };
  if (r.kind === 'observe') return { kind: isScalar(r.value) ? 'equals' : 'deep_equals', value: r.value };
  if (r.kind === 'throw') return { kind: 'throws', errorName: r.name, message: r.message, ...(r.iterated ? { iterated: true } : {}) };
  return undefined;
}

/** of the tries per target, the runs the mutation phase gets per target */
const MUTATION_RUNS_PER_TRY = 0.5;

function asCase(r: PyRow, kills: readonly string[]): PySeqCase | undefined {
  const oracle = oracleOf(r);
  if (!oracle) return undefined;
  const lines = r.lines ?? [];
  const spans = lines.map((l): [string, number, number] => {
    const at = l.lastIndexOf(':');
    const n = Number(l.slice(at + 1));
    return [l.slice(0, at), n, n + 1];
  });
  // A distinct exception is a unit of its own for the greedy selection: it keeps one test per
  // exception per function even where the raising lines are covered by a test that returns.
  const last = r.steps[r.steps.length - 1];
  const raised = r.kind === 'throw' ? [`raises ${r.target} ${last.method ?? last.fn?.join('.')} ${r.name}`] : [];
  // A killed mutant is a unit too: the selection keeps a sequence that kills a mutant no other kept one kills.
  const mutants = [...new Set([...(r.mutants ?? []), ...kills])].map((id) => `mutant:${id}`);
  return { id: r.id, path: [r.target], args: [], oracle, lines, spans, arcs: [...(r.arcs ?? []), ...raised, ...mutants], seq: r };
}

export async function characterizePythonSequences(
  modulePath: string,
  root: string,
  targets: readonly CharTarget[],
  opts: { limits?: SandboxLimits; signal?: AbortSignal; python?: string; tries?: number; mutation?: boolean } = {},
): Promise<ModuleCharacterization> {
  const limits = opts.limits ?? DEFAULT_LIMITS;
  const clockMs = safetyClockMs(limits);
  const tries = opts.tries ?? 120;
  const named = targets.filter((t) => t.path.length === 1).map((t) => ({ name: t.path[0], examples: examplesOf(t) }));
  const spec: PySearchSpec = {
    seed: FIXED_SEED,
    clockMs,
    tries,
    mutationRuns: opts.mutation === false ? 0 : Math.round(tries * MUTATION_RUNS_PER_TRY * named.length),
    targets: named,
  };
  const run = { signal: opts.signal, python: opts.python, clockMs };
  const found = await runSequenceChild(modulePath, root, { search: spec }, limits, run);
  const kept = found.rows.filter((r) => r.kind !== 'unpinnable');
  const unusable = found.rows.length - kept.length + (found.dropped?.unusable ?? 0);
  // The replay goes in reverse order: what depends on state left by an earlier sequence differs.
  const again = kept.length ? await runSequenceChild(modulePath, root, { replay: [...kept].reverse() }, limits, run) : { rows: [] };
  const byId = new Map<string, PyRow[]>();
  for (const b of again.rows) byId.set(b.id, [...(byId.get(b.id) ?? []), b]);
  const stable: PySeqCase[] = [];
  let unstable = found.dropped?.unstable ?? 0;
  for (const r of kept) {
    // replayed twice in a row, in reverse order: all three runs must agree
    const runs = byId.get(r.id) ?? [];
    const agree =
      runs.length === 2 &&
      runs.every((b) => outcomeKey(b) === outcomeKey(r) && sameTagged(r.steps as unknown as Tagged, b.steps as unknown as Tagged));
    const c = agree ? asCase(r, found.dropped?.kills?.[r.id] ?? []) : undefined;
    if (c) stable.push(c);
    else unstable++;
  }
  const lines = new Set(stable.flatMap((c) => c.lines)).size;
  const cut = !!found.dropped?.cut || !!found.killed;
  return {
    module: modulePath,
    cases: greedySelect(stable),
    stable: stable.length,
    unstable,
    unusable,
    lines,
    ...(cut ? { cutByClock: true } : {}),
  };
}
