// What a test of a sequence asserts, from what the child observed: the last step's value (a pinned
// value, an error's class and message, or, for an object, its observers: own state, getters,
// String(), valueOf(), toJSON(); a method that returns `this` is checked to do so), then, in order,
// the calls each generated callback received, the events an emitter emitted, how literal arguments
// were changed, the state of the objects the sequence made, and the values of earlier steps. Nothing
// unstable is pinned: values holding a temporary path, identities and functions never are.
// Every check is named by the fact it asserts (facts.ts): given the facts to keep (those that notice a
// mutant the sequence kills), the test asserts only those beside its main assertion.
import type { Oracle } from '../contracts/types';
import { assertedCalls, ERROR } from './facts';
import { eventWait, Names, renderSequence, TMP, type Rendered } from './render';
import type { Observation, SeenArg, Sequence, ValueSeen } from './types';
import { isNaNTag, isScalar, jsLiteral, type Tagged } from './values';

type Check = NonNullable<Oracle['checks']>[number];

export interface SequenceOracle {
  oracle: Omit<Oracle, 'language' | 'bindings'>;
  /** what the main assertion says, for the case's `expected` and title */
  outcome: { kind: 'value' | 'throws' | 'state'; text: string; async: boolean };
}

export const MAX_CHECKS = 8;
/** checks a test keeps when each notices a mutant (assertion minimisation chose them) */
const MAX_KEPT_CHECKS = 12;

/** A check and the fact it asserts (facts.ts), with the step whose value it reads. */
interface Fact {
  fact: string;
  step?: number;
  check: Check;
}

function cmp(call: string, v: Tagged): Check {
  return { call, kind: isScalar(v) || isNaNTag(v) ? 'equals' : 'deep_equals', expected: jsLiteral(v) };
}

function fact(f: string, check: Check, step?: number): Fact {
  return { fact: f, check, ...(step !== undefined ? { step } : {}) };
}

function observerCall(expr: string, v: string): string {
  if (expr === 'spread') return `{ ...${v} }`;
  if (expr === 'String') return `String(${v})`;
  return `${v}${expr}`;
}

function observersOf(v: string, seen: ValueSeen, step: number): Fact[] {
  return (seen.obs ?? []).map((o) => fact(`o:${step}:${o.expr}`, cmp(observerCall(o.expr, v), o.v), step));
}

function argsChecks(name: string, calls: SeenArg[][]): Check[] {
  if (calls.every((args) => args.every((a) => 'v' in a)))
    return [
      cmp(
        name,
        calls.map((args) => args.map((a) => (a as { v: Tagged }).v)),
      ),
    ];
  const out: Check[] = [cmp(`${name}.length`, calls.length)];
  calls.forEach((args, j) =>
    args.forEach((a, k) => {
      if ('error' in a) out.push(cmp(`${name}[${j}][${k}].message`, a.error.message));
      else if ('v' in a) out.push(cmp(`${name}[${j}][${k}]`, a.v));
    }),
  );
  return out;
}

/** Callbacks, events and changed arguments, in that order. */
function sideChecks(obs: Observation, r: Rendered): Fact[] {
  const out: Fact[] = [];
  for (const cb of obs.callbacks) {
    const name = r.recorders.get(cb.id);
    if (name !== undefined && !cb.phases.includes('observe'))
      out.push(...argsChecks(`calls${name}`, cb.args.slice(0, assertedCalls(cb))).map((c) => fact(`cb:${cb.id}`, c)));
  }
  for (const ev of obs.events) {
    const name = r.events.get(ev.step);
    // events after the last step count when the test waits for them (render.ts eventWait)
    if (name && !ev.phases.includes('observe') && (!ev.phases.includes('later') || eventWait(obs, ev.step) !== undefined))
      out.push(...argsChecks(name, ev.list).map((c) => fact(`ev:${ev.step}`, c)));
  }
  for (const m of obs.mutated) {
    const name = r.argVars.get(`${m.step}:${m.arg}`);
    if (name && m.v !== undefined) out.push(fact(`mut:${m.step}:${m.arg}`, cmp(name, m.v)));
  }
  return out;
}

/** Which steps' values the test may name and observe: objects with observers, and earlier pinned values. */
function observedSteps(obs: Observation): Set<number> {
  const out = new Set<number>();
  const last = obs.steps.length - 1;
  obs.values.forEach((v, i) => {
    if (!v) return;
    if (v.obs?.length || v.same !== undefined) out.add(i);
    else if (i < last && v.v !== undefined && !(typeof v.v === 'object' && v.v !== null && '$' in v.v && v.v.$ === 'undef')) out.add(i);
  });
  return out;
}

function stateChecks(obs: Observation, r: Rendered, skip: ReadonlySet<number>): Fact[] {
  const out: Fact[] = [];
  obs.values.forEach((v, i) => {
    const name = r.vars[i];
    if (!v || !name || skip.has(i) || v.same !== undefined) return;
    if (v.obs?.length) out.push(...observersOf(name, v, i));
    else if (v.v !== undefined && i !== obs.steps.length - 1) out.push(fact(`v:${i}`, cmp(name, v.v), i));
  });
  return out;
}

function thrownMessage(message: string): string | undefined {
  // A message naming the sandbox's folders would differ where the test runs.
  return /amtp-search-|\/tmp\/|\\Temp\\/.test(message) ? undefined : JSON.stringify(message);
}

type Base = Pick<SequenceOracle['oracle'], 'setup' | 'temp_dir'>;

/** Every check, uncapped (for listing what an oracle can assert). */
const ALL = 'all';
type Keep = ReadonlySet<string> | typeof ALL | undefined;

/** The checks after the main assertion: those of the facts to keep, or the first MAX_CHECKS when nothing says which. */
function chosen(checks: Fact[], keep: Keep): Fact[] {
  if (keep === ALL) return checks;
  return keep ? checks.filter((c) => keep.has(c.fact)).slice(0, MAX_KEPT_CHECKS) : checks.slice(0, MAX_CHECKS);
}

interface Composed {
  result: SequenceOracle;
  /** the facts the oracle asserts, main first */
  facts: Fact[];
}

/** An oracle whose main assertion is the first of `all`, the rest its checks. */
function asOracle(base: Base, all: Fact[], outcome: SequenceOracle['outcome'], keep: Keep): Composed | undefined {
  if (!all.length) return undefined;
  const [main, ...rest] = all;
  const more = chosen(rest, keep);
  return {
    result: {
      oracle: {
        ...base,
        kind: main.check.kind,
        call: main.check.call,
        expected: main.check.expected,
        ...(more.length ? { checks: more.map((c) => c.check) } : {}),
      },
      outcome,
    },
    facts: [main, ...more],
  };
}

/** The last step threw (or rejected): its class and message, then what the sequence left. */
function thrownOracle(
  base: Base,
  end: Extract<Observation['steps'][number], { ok: false }>,
  obs: Observation,
  r: Rendered,
  keep: Keep,
): Composed {
  // The engine's own message for a bad value ("boolean true is not iterable", "Cannot use 'in'
  // operator…") is V8's wording of the moment: it changes with the JIT's state (what ran before in the
  // same process) and with the Node version. Only the class is the code's behaviour.
  const message = end.error.engine ? undefined : thrownMessage(end.error.message);
  const checks = chosen([...sideChecks(obs, r), ...stateChecks(obs, r, new Set())], keep);
  return {
    result: {
      oracle: {
        ...base,
        kind: 'throws',
        call: r.last,
        error: end.error.name,
        ...(message ? { expected: message } : {}),
        ...(checks.length ? { checks: checks.map((c) => c.check) } : {}),
      },
      outcome: { kind: 'throws', text: `${end.async ? 'rejects' : 'throws'} ${end.error.name}`, async: end.async },
    },
    facts: [{ fact: ERROR, check: { call: r.last, kind: 'throws', expected: message ?? '' } }, ...checks],
  };
}

function compose(
  seq: Sequence,
  obs: Observation,
  local: string,
  taken: Iterable<string>,
  ts: boolean,
  observed: ReadonlySet<number>,
  keep: Keep,
): Composed | undefined {
  const lastIndex = obs.steps.length - 1;
  const end = obs.steps[lastIndex];
  if (!end || 'timeout' in end) return undefined;
  const r = renderSequence(seq, obs, local, new Names(taken), observed, ts);
  const temp = r.usesTmp || seq.files?.length ? { temp_dir: { name: TMP, ...(seq.files?.length ? { files: seq.files } : {}) } } : {};
  const setup = r.setup.join('\n');
  const base: Base = { ...(setup ? { setup } : {}), ...temp };
  const op = seq.steps[lastIndex].op;
  if (!end.ok) return op === 'iter' || op === 'aiter' ? undefined : thrownOracle(base, end, obs, r, keep);
  const seen = obs.values[lastIndex];
  if (!seen) return undefined;
  const extra = [...sideChecks(obs, r), ...stateChecks(obs, r, new Set([lastIndex, ...(seen.same !== undefined ? [seen.same] : [])]))];
  const v = r.vars[lastIndex] ?? r.last;
  if (seen.v !== undefined && seen.same === undefined) {
    const main = fact(`v:${lastIndex}`, cmp(v, seen.v));
    const text = valueText(main.check.expected!, end.async, obs);
    return asOracle(base, [main, ...extra], { kind: 'value', text, async: end.async }, keep);
  }
  const own = seen.same !== undefined ? [fact(`same:${lastIndex}`, cmp(`${v} === ${r.vars[seen.same]}`, true), lastIndex)] : [];
  const holder = seen.same !== undefined ? seen.same : lastIndex;
  const state = observersOf(r.vars[holder] ?? v, obs.values[holder]!, holder);
  const text = seen.same !== undefined ? 'returns itself' : 'leaves the observed state';
  return asOracle(base, [...own, ...state, ...extra], { kind: 'state', text, async: end.async }, keep);
}

/**
 * The oracle of a sequence, or undefined when nothing it did can be pinned. `keep`: the facts whose
 * checks the test keeps beside its main assertion (assertion minimisation); without it, the first
 * MAX_CHECKS checks.
 */
export function sequenceOracle(
  seq: Sequence,
  obs: Observation,
  local: string,
  taken: Iterable<string>,
  ts = false,
  keep?: ReadonlySet<string>,
): SequenceOracle | undefined {
  const all = observedSteps(obs);
  const first = compose(seq, obs, local, taken, ts, all, keep);
  if (!first || !keep) return first?.result;
  // Name only the steps the kept checks read: a test holds no variable nothing asserts on.
  const read = new Set(first.facts.flatMap((f) => (f.step !== undefined ? [f.step] : [])));
  return compose(seq, obs, local, taken, ts, new Set([...all].filter((i) => read.has(i))), keep)?.result;
}

/** Every fact a sequence's oracle can assert, in the order its checks come (the main one first). */
export function oracleFacts(seq: Sequence, obs: Observation, local: string): string[] {
  return compose(seq, obs, local, [local], false, observedSteps(obs), ALL)?.facts.map((f) => f.fact) ?? [];
}

/** "returns undefined" says little when the point of the call is its callback: say how often it called back. */
function valueText(expected: string, async: boolean, obs: Observation): string {
  const calls = obs.callbacks.reduce((n, c) => n + assertedCalls(c), 0);
  if (expected === 'undefined' && calls) return `calls back ${calls === 1 ? 'once' : `${calls} times`}`;
  return `${async ? 'resolves to' : 'returns'} ${short(expected)}`;
}

function short(expected: string | undefined): string {
  if (expected === undefined) return 'the observed value';
  return expected.length <= 30 ? expected : 'the observed value';
}
