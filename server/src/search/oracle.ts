// What a test of a sequence asserts, from what the child observed: the last step's value (a pinned
// value, an error's class and message, or, for an object, its observers: own state, getters,
// String(), valueOf(), toJSON(); a method that returns `this` is checked to do so), then, in order,
// the calls each generated callback received, the events an emitter emitted, how literal arguments
// were changed, the state of the objects the sequence made, and the values of earlier steps. Nothing
// unstable is pinned: values holding a temporary path, identities and functions never are.
import type { Oracle } from '../contracts/types';
import { Names, renderSequence, TMP, type Rendered } from './render';
import type { Observation, SeenArg, Sequence, ValueSeen } from './types';
import { isNaNTag, isScalar, jsLiteral, type Tagged } from './values';

type Check = NonNullable<Oracle['checks']>[number];

export interface SequenceOracle {
  oracle: Omit<Oracle, 'language' | 'bindings'>;
  /** what the main assertion says, for the case's `expected` and title */
  outcome: { kind: 'value' | 'throws' | 'state'; text: string; async: boolean };
}

const MAX_CHECKS = 8;

function cmp(call: string, v: Tagged): Check {
  return { call, kind: isScalar(v) || isNaNTag(v) ? 'equals' : 'deep_equals', expected: jsLiteral(v) };
}

function observerCall(expr: string, v: string): string {
  if (expr === 'spread') return `{ ...${v} }`;
  if (expr === 'String') return `String(${v})`;
  return `${v}${expr}`;
}

function observersOf(v: string, seen: ValueSeen): Check[] {
  return (seen.obs ?? []).map((o) => cmp(observerCall(o.expr, v), o.v));
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
function sideChecks(obs: Observation, r: Rendered): Check[] {
  const out: Check[] = [];
  for (const cb of obs.callbacks) {
    const name = r.recorders.get(cb.id);
    if (name !== undefined) out.push(...argsChecks(`calls${name}`, cb.args.slice(0, cb.settledAt ?? cb.args.length)));
  }
  for (const ev of obs.events) {
    const name = r.events.get(ev.step);
    if (name && !ev.phases.includes('later')) out.push(...argsChecks(name, ev.list));
  }
  for (const m of obs.mutated) {
    const name = r.argVars.get(`${m.step}:${m.arg}`);
    if (name && m.v !== undefined) out.push(cmp(name, m.v));
  }
  return out;
}

/** Which steps' values the test names and observes: objects with observers, and earlier pinned values. */
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

function stateChecks(obs: Observation, r: Rendered, skip: ReadonlySet<number>): Check[] {
  const out: Check[] = [];
  obs.values.forEach((v, i) => {
    const name = r.vars[i];
    if (!v || !name || skip.has(i) || v.same !== undefined) return;
    if (v.obs?.length) out.push(...observersOf(name, v));
    else if (v.v !== undefined && i !== obs.steps.length - 1) out.push(cmp(name, v.v));
  });
  return out;
}

function thrownMessage(message: string): string | undefined {
  // A message naming the sandbox's folders would differ where the test runs.
  return /amtp-search-|\/tmp\/|\\Temp\\/.test(message) ? undefined : JSON.stringify(message);
}

type Base = Pick<SequenceOracle['oracle'], 'setup' | 'temp_dir'>;

/** An oracle whose main assertion is the first of `all`, the rest its checks. */
function asOracle(base: Base, all: Check[], outcome: SequenceOracle['outcome']): SequenceOracle | undefined {
  if (!all.length) return undefined;
  const [main, ...checks] = all;
  const more = checks.slice(0, MAX_CHECKS);
  return {
    oracle: { ...base, kind: main.kind, call: main.call, expected: main.expected, ...(more.length ? { checks: more } : {}) },
    outcome,
  };
}

/** The last step threw (or rejected): its class and message, then what the sequence left. */
function thrownOracle(
  base: Base,
  end: Extract<Observation['steps'][number], { ok: false }>,
  obs: Observation,
  r: Rendered,
): SequenceOracle {
  const message = thrownMessage(end.error.message);
  const checks = [...sideChecks(obs, r), ...stateChecks(obs, r, new Set())].slice(0, MAX_CHECKS);
  return {
    oracle: {
      ...base,
      kind: 'throws',
      call: r.last,
      error: end.error.name,
      ...(message ? { expected: message } : {}),
      ...(checks.length ? { checks } : {}),
    },
    outcome: { kind: 'throws', text: `${end.async ? 'rejects' : 'throws'} ${end.error.name}`, async: end.async },
  };
}

/** The oracle of a sequence, or undefined when nothing it did can be pinned. */
export function sequenceOracle(
  seq: Sequence,
  obs: Observation,
  local: string,
  taken: Iterable<string>,
  ts = false,
): SequenceOracle | undefined {
  const lastIndex = obs.steps.length - 1;
  const end = obs.steps[lastIndex];
  if (!end || 'timeout' in end) return undefined;
  const r = renderSequence(seq, obs, local, new Names(taken), observedSteps(obs), ts);
  const temp = r.usesTmp || seq.files?.length ? { temp_dir: { name: TMP, ...(seq.files?.length ? { files: seq.files } : {}) } } : {};
  const setup = r.setup.join('\n');
  const base: Base = { ...(setup ? { setup } : {}), ...temp };
  const op = seq.steps[lastIndex].op;
  if (!end.ok) return op === 'iter' || op === 'aiter' ? undefined : thrownOracle(base, end, obs, r);
  const seen = obs.values[lastIndex];
  if (!seen) return undefined;
  const extra = [...sideChecks(obs, r), ...stateChecks(obs, r, new Set([lastIndex, ...(seen.same !== undefined ? [seen.same] : [])]))];
  const v = r.vars[lastIndex] ?? r.last;
  if (seen.v !== undefined && seen.same === undefined) {
    const main = cmp(v, seen.v);
    return asOracle(base, [main, ...extra], { kind: 'value', text: valueText(main.expected, end.async, obs), async: end.async });
  }
  const own = seen.same !== undefined ? [cmp(`${v} === ${r.vars[seen.same]}`, true)] : [];
  const holder = seen.same !== undefined ? r.vars[seen.same]! : v;
  const state = observersOf(holder, seen.same !== undefined ? obs.values[seen.same]! : seen);
  const text = seen.same !== undefined ? 'returns itself' : 'leaves the observed state';
  return asOracle(base, [...own, ...state, ...extra], { kind: 'state', text, async: end.async });
}

/** "returns undefined" says little when the point of the call is its callback: say how often it called back. */
function valueText(expected: string, async: boolean, obs: Observation): string {
  const calls = obs.callbacks.reduce((n, c) => n + (c.settledAt ?? c.args.length), 0);
  if (expected === 'undefined' && calls) return `calls back ${calls === 1 ? 'once' : `${calls} times`}`;
  return `${async ? 'resolves to' : 'returns'} ${short(expected)}`;
}

function short(expected: string | undefined): string {
  if (expected === undefined) return 'the observed value';
  return expected.length <= 30 ? expected : 'the observed value';
}
