// Builds the next sequence to run, Randoop's way: either a new one-step sequence (call an export,
// construct a class) or an extension of a sequence that already ran cleanly and made an object: call
// one of its methods, call the function it returned, consume it if it is an iterator or a stream,
// listen to it if it emits events, or write text into it and end it if it is a writable stream.
// Targets with more code still unreached, and tried fewer times, are drawn more often; extensions
// start from sequences that reached new code.
import type { Callable, Callables } from './callables';
import { shapeKey } from './callables';
import { argsFor, chunkFor, type InputContext } from './inputs';
import type { Rng } from './rng';
import type { Observation, Sequence, Step } from './types';
import type { Tagged } from './values';

/** A sequence that ran cleanly, kept to be extended. */
export interface Extendable {
  seq: Sequence;
  obs: Observation;
}

export interface BuilderState {
  rng: Rng;
  callables: Callables;
  corpus: Extendable[];
  /** receivers by kind: corpus index and step */
  receivers: Map<string, { at: number; step: number }[]>;
  /** open goals of a callable (its function's statements not reached yet) */
  open(c: Callable): number;
  pools: { numbers: number[]; strings: string[]; constants: Tagged[] };
  events: string[];
  maxSteps: number;
  /** a TypeScript module (InputContext.typed) */
  typed?: boolean;
}

const STREAM_EVENTS = ['data', 'end', 'error', 'close', 'finish'];

function context(state: BuilderState, refs: number[]): InputContext {
  return { rng: state.rng, ...state.pools, refs, callbacks: { next: 0 }, files: new Map(), typed: state.typed };
}

function filesOf(ctx: InputContext, base?: Sequence): Sequence['files'] {
  const files = new Map((base?.files ?? []).map((f) => [f.path, f.content]));
  for (const [p, c] of ctx.files) files.set(p, c);
  return files.size ? [...files].sort(([a], [b]) => a.localeCompare(b)).map(([path, content]) => ({ path, content })) : undefined;
}

/** Runs of one callable that may hang (time out or leave work pending) before it is not called again... */
const MAX_HANGS = 2;
/** ... unless they are rare among its runs (at most one in four), and then at most this many */
const MAX_RARE_HANGS = 4;

function weightOf(state: BuilderState, c: Callable): number {
  // A callable whose runs hang (an endless loop on some input) costs a child each time: try it less, then
  // not at all; one that hangs on a few inputs only (a stream left open) is still worth its other runs.
  const hangs = c.hangs ?? 0;
  if (hangs >= MAX_HANGS && (hangs >= MAX_RARE_HANGS || hangs * 4 > c.tries)) return 0;
  return (1 + state.open(c)) / Math.sqrt(1 + c.tries) / (1 + hangs);
}

/** Step indexes of a sequence whose values are objects or functions (arguments for later steps). */
function objectRefs(obs: Observation): number[] {
  const out: number[] = [];
  obs.values.forEach((v, i) => {
    if (v && (v.shape.t === 'object' || v.shape.t === 'function') && !v.shape.thenable) out.push(i);
  });
  return out;
}

function callbackIds(seq: Sequence): number {
  let n = 0;
  const visit = (a: unknown): void => {
    if (!a || typeof a !== 'object') return;
    if ('cb' in (a as object)) n = Math.max(n, (a as { cb: { id: number } }).cb.id + 1);
    Object.values(a as object).forEach(visit);
  };
  seq.steps.forEach((s) => (s.args ?? []).forEach(visit));
  return n;
}

/** Strings and numbers the sequence already passed, each once, in order. */
function reusable(seq: Sequence): Tagged[] {
  const out: Tagged[] = [];
  for (const s of seq.steps)
    for (const a of s.args ?? [])
      if ('lit' in a && (typeof a.lit === 'string' || typeof a.lit === 'number') && !out.includes(a.lit)) out.push(a.lit);
  return out;
}

export function rootSequence(state: BuilderState, id: string): { seq: Sequence; callable: Callable } | undefined {
  const roots = state.callables.roots().filter((r) => weightOf(state, r) > 0);
  if (!roots.length) return undefined;
  const c = roots[state.rng.weighted(roots.map((r) => weightOf(state, r)))];
  c.tries++;
  const ctx = context(state, []);
  const args = argsFor(c.params, c.arity, c.seed, ctx);
  const step: Step = c.op === 'new' ? { op: 'new', path: c.path!, args } : { op: 'call', path: c.path!, args };
  return { seq: { id, steps: [step], files: filesOf(ctx) }, callable: c };
}

/** Writes into a writable stream and ends it: what its transform or sink does is behaviour (node's own `write` is no method of the project's). */
function feedSteps(recv: number, ctx: InputContext): Step[] {
  const writes = 1 + Math.floor(ctx.rng.next() * 2);
  const steps: Step[] = Array.from({ length: writes }, () => ({ op: 'method', recv, name: 'write', args: [chunkFor(ctx)] }) as Step);
  return [...steps, { op: 'method', recv, name: 'end', args: [] }];
}

/** The step that extends a receiver (and the steps that follow it), or undefined when it offers nothing to do. */
function extensionStep(
  state: BuilderState,
  base: Extendable,
  step: number,
  ctx: InputContext,
): { step: Step; callable?: Callable; then?: Step[] } | undefined {
  const v = base.obs.values[step];
  if (!v) return undefined;
  const key = shapeKey(v.shape);
  const options: (() => { step: Step; callable?: Callable; then?: Step[] })[] = [];
  const methods = (key ? state.callables.methodsOn(key) : []).filter((m) => weightOf(state, m) > 0);
  for (const m of methods)
    options.push(() => ({
      step: { op: 'method', recv: step, name: m.method!, args: argsFor(m.params, m.arity, m.seed, ctx) },
      callable: m,
    }));
  if (v.shape.t === 'function')
    options.push(() => ({ step: { op: 'callv', recv: step, args: argsFor([], v.shape.arity ?? 0, undefined, ctx) } }));
  if (v.shape.iter) options.push(() => ({ step: { op: 'iter', recv: step } }));
  if (v.shape.asyncIter) options.push(() => ({ step: { op: 'aiter', recv: step } }));
  const listened = base.seq.steps.some((s) => s.op === 'listen' && s.recv === step);
  if (v.shape.emitter && !listened) {
    const events = [...new Set([...(v.shape.stream ? STREAM_EVENTS : []), ...state.events])].slice(0, 8);
    if (events.length) options.push(() => ({ step: { op: 'listen', recv: step, events } }));
  }
  const ended = base.seq.steps.some((s) => s.op === 'method' && s.recv === step && s.name === 'end');
  if (v.shape.writable && listened && !ended)
    options.push(() => {
      const [first, ...then] = feedSteps(step, ctx);
      return { step: first, then };
    });
  if (!options.length) return undefined;
  const weights = options.map((_, i) => (methods[i] ? weightOf(state, methods[i]) : 1));
  return options[state.rng.weighted(weights)]();
}

export function extendSequence(state: BuilderState, id: string): { seq: Sequence; callable?: Callable } | undefined {
  const kinds = [...state.receivers.keys()].sort();
  if (!kinds.length) return undefined;
  const weights = kinds.map((k) => 1 + state.callables.methodsOn(k).reduce((s, m) => s + weightOf(state, m), 0));
  const list = state.receivers.get(kinds[state.rng.weighted(weights)])!;
  // Later entries reached new code more recently: prefer them.
  const pick = list[Math.min(list.length - 1, Math.floor(Math.sqrt(state.rng.next()) * list.length))];
  const base = state.corpus[pick.at];
  if (base.seq.steps.length >= state.maxSteps) return undefined;
  const ctx = context(state, objectRefs(base.obs));
  ctx.callbacks.next = callbackIds(base.seq);
  ctx.reuse = reusable(base.seq);
  const ext = extensionStep(state, base, pick.step, ctx);
  if (!ext) return undefined;
  if (ext.callable) ext.callable.tries++;
  const steps = [...base.seq.steps, ext.step, ...(ext.then ?? [])];
  // Listening shows nothing by itself: a method call on the emitter follows in the same extension, or,
  // on a writable stream, text written into it half of the time.
  const shape = base.obs.values[pick.step]!.shape;
  const key = ext.step.op === 'listen' ? shapeKey(shape) : undefined;
  const methods = (key ? state.callables.methodsOn(key) : []).filter((x) => weightOf(state, x) > 0);
  if (key && shape.writable && (!methods.length || state.rng.chance(0.5))) steps.push(...feedSteps(pick.step, ctx));
  else if (methods.length) {
    const m = methods[state.rng.weighted(methods.map((x) => weightOf(state, x)))];
    m.tries++;
    steps.push({ op: 'method', recv: pick.step, name: m.method!, args: argsFor(m.params, m.arity, m.seed, ctx) });
  }
  return { seq: { id, steps, files: filesOf(ctx, base.seq) }, callable: ext.callable };
}

/** The callable a step of a sequence that ran calls (for drawing new arguments for it). */
function callableOf(state: BuilderState, base: Extendable, at: number): Pick<Callable, 'params' | 'arity' | 'seed'> | undefined {
  const s = base.seq.steps[at];
  if (s.op === 'call' || s.op === 'new') {
    const path = s.path.join('.');
    return state.callables.roots().find((c) => c.op === s.op && c.path!.join('.') === path);
  }
  const recv = 'recv' in s ? base.obs.values[s.recv] : undefined;
  if (s.op === 'callv') return { params: [], arity: recv?.shape.arity ?? 0, seed: undefined };
  const key = recv ? shapeKey(recv.shape) : undefined;
  return s.op === 'method' && key ? state.callables.methodsOn(key).find((m) => m.method === s.name) : undefined;
}

/**
 * The same sequence with new arguments for step `at` (the survivor search: other inputs that reach the
 * same code), or undefined when the step takes none or its callable is not known.
 */
export function varyStep(state: BuilderState, base: Extendable, at: number, id: string): Sequence | undefined {
  const step = base.seq.steps[at];
  if (!step || step.op === 'iter' || step.op === 'aiter' || step.op === 'listen') return undefined;
  const c = callableOf(state, base, at);
  if (!c || (!c.arity && !c.params.length)) return undefined;
  const ctx = context(
    state,
    objectRefs(base.obs).filter((r) => r < at),
  );
  ctx.callbacks.next = callbackIds(base.seq);
  ctx.reuse = reusable(base.seq);
  const args = argsFor(c.params, c.arity, c.seed, ctx);
  const steps = base.seq.steps.map((s, i) => (i === at ? ({ ...s, args } as Step) : s));
  return { id, steps, files: filesOf(ctx, base.seq) };
}

/** The sequence with one more step on one of the objects it made (the survivor search: observe what the mutant changed). */
export function extendAny(state: BuilderState, base: Extendable, id: string): Sequence | undefined {
  if (base.seq.steps.length >= state.maxSteps) return undefined;
  const refs = objectRefs(base.obs).filter((r) => base.obs.values[r]?.same === undefined);
  if (!refs.length) return undefined;
  const ctx = context(state, objectRefs(base.obs));
  ctx.callbacks.next = callbackIds(base.seq);
  ctx.reuse = reusable(base.seq);
  const ext = extensionStep(state, base, refs[state.rng.int(refs.length)], ctx);
  if (!ext) return undefined;
  return { id, steps: [...base.seq.steps, ext.step], files: filesOf(ctx, base.seq) };
}
