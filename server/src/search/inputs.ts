// Arguments for one call, drawn with the search's seeded generator from every source the search has:
// documented calls (`seed.examples`), the literals and defaults the function itself compares with, the
// keys it reads from an options object, declared types (TypeScript, JSDoc) and parameter names, the
// module's own literals and constants, values earlier steps of the sequence made (objects to pass
// along), generated callbacks, and paths inside the sequence's temporary folder. Trivial values
// (undefined, null, '', -1, [], {}) are one source among many, drawn rarely.
import type { ParamHint, FnHints, Kind } from './hints';
import { emptyHint, kindsByName } from './hints';
import type { Rng } from './rng';
import type { Arg, CallbackSpec } from './types';
import { tag, type Tagged } from './values';

/** What the crawler knows of a symbol: documented argument lists and declared parameter types. */
export interface Seed {
  examples?: unknown[][];
  /** per parameter: a TypeScript or JSDoc type */
  types?: (string | undefined)[];
  names?: string[];
}

/** The module-wide pools, and what the sequence being built offers. */
export interface InputContext {
  rng: Rng;
  numbers: number[];
  strings: string[];
  constants: Tagged[];
  /** earlier steps of this sequence whose values can be passed (objects, functions), by step index */
  refs: number[];
  /** next callback id */
  callbacks: { next: number };
  /** files the sequence's folder gets when a path argument names one */
  files: Map<string, string>;
  /** literals earlier steps of the sequence passed (an event name given to `on` is the one `emit` needs) */
  reuse?: Tagged[];
  /** a TypeScript module: a parameter with a declared type gets only values of that type, so the test type-checks */
  typed?: boolean;
}

const NUMBERS = [1, 2, 3, 10, 0, 5, 100, 0.5, 42, 7, -3, 1000];
const STRINGS = [
  'abc',
  'Hello World',
  'foo-bar_baz',
  'a,b,c',
  'x',
  'hello world!',
  '  padded  ',
  'CamelCase',
  '123',
  'a.b.c',
  'line1\nline2',
  'ünïcödé',
];
const TRIVIAL: Tagged[] = [{ $: 'undef' }, null, '', -1, [], { $: 'obj', v: {} }, 0];
const TEMP_FILES: [string, string][] = [
  ['file.txt', 'hello\nworld\n'],
  ['data.json', '{"a":1,"b":[1,2]}'],
  ['dir/nested.txt', 'nested'],
];
const TEMP_PATHS = ['file.txt', 'data.json', 'dir', 'dir/nested.txt', 'new-dir/a/b', 'missing.txt', 'out.txt', ''];

const TYPE_KINDS: [RegExp, Kind][] = [
  [/^(number|int|integer|float|bigint)$/, 'number'],
  [/^(string|str)$|^(['"]).*\2(\s*\|\s*(['"]).*\4)*$/, 'string'],
  [/^(boolean|bool)$/, 'boolean'],
  [/\[\]$|^(array|readonlyarray|list)\b/, 'array'],
  [/^(object|record|dict|map)\b|^\{/, 'object'],
  [/=>|^function\b|callback/, 'function'],
  [/^regexp$/, 'regexp'],
  [/^date$/, 'date'],
  [/^promise\b/, 'promise'],
];

export function kindsOfType(type: string | undefined): Kind[] {
  if (!type) return [];
  const parts = type
    .toLowerCase()
    .split('|')
    .map((t) => t.trim())
    .filter((t) => t && t !== 'null' && t !== 'undefined' && t !== 'void');
  const out: Kind[] = [];
  for (const p of parts) for (const [re, k] of TYPE_KINDS) if (re.test(p) && !out.includes(k)) out.push(k);
  return out;
}

/** String literal members of a union type (`'a' | 'b'`), as values worth trying. */
function typeLiterals(type: string | undefined): string[] {
  return [...(type ?? '').matchAll(/(['"])([^'"]{0,40})\1/g)].map((m) => m[2]);
}

function literal(v: unknown): Arg {
  return { lit: tag(v) };
}

/** Code that runs generator functions: it names their constructor, or reads `next` and `throw` of what it is given. */
function wantsGenerator(h: ParamHint, ctx: InputContext): boolean {
  return (
    ctx.strings.includes('GeneratorFunction') || /^gen(erator)?(Fn|Func)?$/i.test(h.name ?? '') || ('next' in h.props && 'throw' in h.props)
  );
}

function callbackFor(h: ParamHint, ctx: InputContext): Arg {
  const name = h.name ?? '';
  const predicate = /^(predicate|filter|test|is|compare|comparator)/i.test(name);
  const cb: CallbackSpec = { id: ctx.callbacks.next++ };
  const r = ctx.rng.next();
  if (predicate) cb.ret = r < 0.5 ? 'true' : 'false';
  else if (r < 0.4) cb.ret = 'first';
  if (!predicate && wantsGenerator(h, ctx) && ctx.rng.chance(0.6)) {
    cb.gen = ctx.rng.chance(0.25) ? 'err' : 'ok';
    // runners of generators take more than promises: thunks, arrays and objects of them
    const form = ctx.rng.pick([undefined, undefined, 'thunk', 'array', 'object'] as const);
    if (cb.gen === 'ok' && form) cb.yields = form;
    return { cb };
  }
  if (ctx.rng.chance(0.2)) cb.async = true;
  // Tasks, workers and promisified functions finish by calling back: without that, the code that
  // handles their results and errors never runs.
  if (!predicate && ctx.rng.chance(/^(task|worker|job|fn|func|iterator|iteratee|input)$/i.test(name) ? 0.6 : 0.3))
    cb.cont = ctx.rng.chance(0.25) ? 'err' : 'ok';
  return { cb };
}

function pathFor(ctx: InputContext): Arg {
  const p = ctx.rng.pick(TEMP_PATHS);
  for (const [f, content] of TEMP_FILES) if (ctx.rng.chance(0.6) || f === p) ctx.files.set(f, content);
  return { tmp: p };
}

function numberFor(h: ParamHint, ctx: InputContext): number {
  const own = h.literals.filter((l): l is number => typeof l === 'number');
  if (own.length && ctx.rng.chance(0.5)) return ctx.rng.pick(own) + ctx.rng.pick([0, 0, 1, -1]);
  if (ctx.numbers.length && ctx.rng.chance(0.4)) return ctx.rng.pick(ctx.numbers);
  return ctx.rng.pick(NUMBERS);
}

function stringFor(h: ParamHint, ctx: InputContext): string {
  const own = h.literals.filter((l): l is string => typeof l === 'string');
  if (own.length && ctx.rng.chance(0.6)) return ctx.rng.pick(own);
  return poolString(ctx);
}

/** A string of the module's literals or of the common ones. */
function poolString(ctx: InputContext): string {
  if (ctx.strings.length && ctx.rng.chance(0.45)) return ctx.rng.pick(ctx.strings);
  return ctx.rng.pick(STRINGS);
}

/** Text to write into a stream: one to three strings of the pools on lines of their own (text streams split, parse or count lines). */
export function chunkFor(ctx: InputContext): Arg {
  const n = 1 + Math.floor(ctx.rng.next() * 3);
  const parts = Array.from({ length: n }, () => poolString(ctx));
  return literal(parts.join('\n') + (ctx.rng.chance(0.5) ? '\n' : ''));
}

function arrayFor(h: ParamHint, ctx: InputContext, depth: number): Arg {
  // a list whose items the code uses (calls them, reads their keys): one to three such items
  const items = h.items;
  if (items && (items.kinds.length || Object.keys(items.props).length) && depth < 2 && ctx.rng.chance(0.6))
    return { arr: Array.from({ length: 1 + ctx.rng.int(3) }, () => valueFor(items, ctx, depth + 1)) };
  const r = ctx.rng.int(6);
  if (r === 0) return literal([3, 1, 2]);
  if (r === 1) return literal(['b', 'a', 'c']);
  if (r === 2) return literal([1, 'two', null, { a: 1 }]);
  if (r === 3 && ctx.strings.length) return literal(ctx.strings.slice(0, 3));
  if (r === 4 && depth < 2) return { arr: [valueFor(emptyHint(), ctx, depth + 1), valueFor(emptyHint(), ctx, depth + 1)] };
  return literal([1, 2, 3, 4]);
}

function objectFor(h: ParamHint, ctx: InputContext, depth: number): Arg {
  const keys = Object.keys(h.props);
  if (!keys.length || depth > 2) {
    const objs = ctx.constants.filter((c) => c !== null && typeof c === 'object' && !Array.isArray(c) && c.$ === 'obj');
    if (objs.length && ctx.rng.chance(0.4)) return { lit: ctx.rng.pick(objs) };
    // a nested one too: deep merges, clones, flatteners and comparers walk into their values
    return literal(ctx.rng.pick([{ a: 1, b: 'two' }, { key: 'value' }, { name: 'x', value: 2 }, { a: { b: 1, c: [1, 2] }, d: 'x' }]));
  }
  const obj = Object.create(null) as Record<string, Arg>;
  // Each key read by the code, or a random half of them: both the keys and their absence take branches.
  const all = ctx.rng.chance(0.5);
  for (const k of keys) if (all || ctx.rng.chance(0.5)) obj[k] = valueFor(h.props[k], ctx, depth + 1);
  return { obj };
}

function kindFor(h: ParamHint, ctx: InputContext): Kind | 'unknown' {
  const kinds = h.kinds.length ? h.kinds : Object.keys(h.props).length ? (['object'] as Kind[]) : [];
  if (!kinds.length || ctx.rng.chance(0.1)) return 'unknown';
  return ctx.rng.pick(kinds);
}

const PRIMITIVE: Partial<Record<Kind, string>> = { number: 'number', string: 'string', boolean: 'boolean' };

/** A value of a declared type only (TypeScript sources): what `tsc` accepts for the parameter. */
function declaredValueFor(h: ParamHint, declared: Kind[], ctx: InputContext, depth: number): Arg {
  const types = declared.map((k) => PRIMITIVE[k]);
  const own = types.every((t) => t !== undefined) ? h.literals.filter((l) => types.includes(typeof l)) : [];
  if (own.length && ctx.rng.chance(0.3)) return { lit: ctx.rng.pick(own) };
  const kind = ctx.rng.pick(declared);
  return valueFor(
    { ...h, kinds: [kind], literals: own, declared: undefined },
    { ...ctx, reuse: undefined, refs: [], typed: false },
    depth,
    true,
  );
}

/** One argument for a parameter. */
export function valueFor(h: ParamHint, ctx: InputContext, depth = 0, strict = false): Arg {
  const { rng } = ctx;
  const declared = ctx.typed && h.declared?.length && !h.declared.some((k) => k === 'promise' || k === 'emitter') ? h.declared : undefined;
  if (declared) return declaredValueFor(h, declared, ctx, depth);
  if (strict) return byKind(h, h.kinds[0], ctx, depth);
  if (rng.chance(0.06)) return { lit: rng.pick(TRIVIAL) };
  if (h.literals.length && rng.chance(0.3)) return { lit: rng.pick(h.literals) };
  if (ctx.reuse?.length && rng.chance(0.25)) return { lit: rng.pick(ctx.reuse) };
  if (ctx.refs.length && rng.chance(h.kinds.length ? 0.08 : 0.25)) return { ref: rng.pick(ctx.refs) };
  return byKind(h, kindFor(h, ctx), ctx, depth);
}

function byKind(h: ParamHint, kind: Kind | 'unknown', ctx: InputContext, depth: number): Arg {
  const { rng } = ctx;
  switch (kind) {
    case 'function':
      return callbackFor(h, ctx);
    case 'path':
      return rng.chance(0.8) ? pathFor(ctx) : literal(stringFor(h, ctx));
    case 'number':
      return literal(numberFor(h, ctx));
    case 'string':
      return literal(stringFor(h, ctx));
    case 'boolean':
      return literal(rng.chance(0.5));
    case 'array':
      return arrayFor(h, ctx, depth);
    case 'object':
      return objectFor(h, ctx, depth);
    case 'regexp':
      return literal(rng.pick([/a/, /[a-z]+/g, /^x$/i]));
    case 'date':
      return literal(new Date(Date.UTC(2020, 1, 3, 4, 5, 6)));
    case 'promise':
    case 'emitter':
    case 'unknown':
      return unknownFor(h, ctx, depth);
  }
}

function unknownFor(h: ParamHint, ctx: InputContext, depth: number): Arg {
  switch (ctx.rng.int(7)) {
    case 0:
      return literal(numberFor(h, ctx));
    case 1:
    case 2:
      return literal(stringFor(h, ctx));
    case 3:
      return arrayFor(h, ctx, depth);
    case 4:
      return objectFor(h, ctx, depth);
    case 5:
      return ctx.constants.length ? { lit: ctx.rng.pick(ctx.constants) } : literal(ctx.rng.chance(0.5));
    default:
      return callbackFor(h, ctx);
  }
}

/** The parameter hints of a callable, merged with the crawler's declared types and names. */
export function paramHints(hints: FnHints | undefined, seed: Seed | undefined, arity: number): ParamHint[] {
  const n = Math.max(arity, hints?.params.length ?? 0, seed?.types?.length ?? 0);
  return Array.from({ length: n }, (_, i) => {
    const base = hints?.params[i] ?? emptyHint(seed?.names?.[i]);
    const h: ParamHint = { ...base, kinds: [...base.kinds], literals: [...base.literals] };
    for (const k of [...kindsOfType(seed?.types?.[i]), ...kindsByName(seed?.names?.[i])]) if (!h.kinds.includes(k)) h.kinds.unshift(k);
    const declared = kindsOfType(seed?.types?.[i]);
    if (declared.length) h.declared = declared;
    for (const s of typeLiterals(seed?.types?.[i])) h.literals.push(s);
    return h;
  });
}

/** An argument list: a documented one now and then, else one value per parameter (trailing defaulted ones sometimes left out). */
export function argsFor(params: ParamHint[], arity: number, seed: Seed | undefined, ctx: InputContext): Arg[] {
  const examples = seed?.examples ?? [];
  if (examples.length && ctx.rng.chance(0.3)) {
    try {
      return ctx.rng.pick(examples).map((v) => literal(v));
    } catch {
      /* an example value that cannot cross (a function): generate instead */
    }
  }
  let n = params.length;
  const required = Math.min(arity, n);
  while (n > required && (params[n - 1].hasDefault || params[n - 1].rest || n > arity) && ctx.rng.chance(0.4)) n--;
  return params.slice(0, n).map((h) => valueFor(h, ctx));
}
