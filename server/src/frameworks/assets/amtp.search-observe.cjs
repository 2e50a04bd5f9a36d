// What the search child records of a value (server/src/search/values.ts reads the same tags): a
// pinnable encoding (JSON with tags for NaN, -0, undefined, bigint, Date, Map, Set, Buffer, RegExp and
// plain objects), or for anything else its shape (class, methods, getters, whether it is a promise,
// an iterator, a stream or an emitter) and, for an instance, its observers: own enumerable state,
// getters, toString, valueOf and toJSON, each pinned by its value. Functions, symbols, cycles, larger
// values and identities are never pinned.
'use strict';

class Unpinnable extends Error {}

function decode(v, helpers) {
  if (Array.isArray(v)) return v.map((x) => decode(x, helpers));
  if (v === null || typeof v !== 'object') return v;
  switch (v.$) {
    case 'num': return Number(v.v);
    case 'undef': return undefined;
    case 'big': return BigInt(v.v);
    case 'date': return new Date(v.v);
    case 'map': return new Map(v.v.map(([k, x]) => [decode(k, helpers), decode(x, helpers)]));
    case 'set': return new Set(v.v.map((x) => decode(x, helpers)));
    case 'buf': return Buffer.from(v.v, 'hex');
    case 're': return new RegExp(v.v, v.f);
    case 'obj': {
      const o = v.np ? Object.create(null) : {};
      for (const [k, x] of Object.entries(v.v)) Object.defineProperty(o, k, { value: decode(x, helpers), enumerable: true, writable: true, configurable: true });
      return o;
    }
    default: throw new Error(`bad tagged value ${JSON.stringify(v)}`);
  }
}

function plainProto(value) {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function encode(value, budget, seen = new Set()) {
  if (--budget.left < 0) throw new Unpinnable('larger than the bound');
  switch (typeof value) {
    case 'string':
      budget.left -= Math.floor(value.length / 16);
      if (budget.left < 0) throw new Unpinnable('larger than the bound');
      if (budget.volatile && budget.volatile.some((s) => value.includes(s))) throw new Unpinnable('holds a temporary path');
      return value;
    case 'boolean': return value;
    case 'undefined': return { $: 'undef' };
    case 'bigint': return { $: 'big', v: String(value) };
    case 'number':
      if (Object.is(value, -0)) return { $: 'num', v: '-0' };
      return Number.isFinite(value) ? value : { $: 'num', v: String(value) };
    case 'function': throw new Unpinnable('a function');
    case 'symbol': throw new Unpinnable('a symbol');
  }
  if (value === null) return null;
  if (seen.has(value)) throw new Unpinnable('a cyclic value');
  seen.add(value);
  try {
    return encodeObject(value, budget, seen);
  } finally {
    seen.delete(value);
  }
}

function encodeObject(value, budget, seen) {
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) throw new Unpinnable('an Array subclass');
    // deepStrictEqual compares an array's named properties and holes too (eventemitter2 sets
    // `maxListeners` on the array it keeps as its config)
    if (Object.keys(value).length !== value.length) throw new Unpinnable('an array with named properties');
    return Array.from(value, (x) => encode(x, budget, seen));
  }
  if (value instanceof Date && Object.getPrototypeOf(value) === Date.prototype) {
    if (Number.isNaN(value.getTime())) throw new Unpinnable('an invalid date');
    return { $: 'date', v: value.toISOString() };
  }
  if (Buffer.isBuffer(value)) {
    budget.left -= Math.floor(value.length / 8);
    if (budget.left < 0) throw new Unpinnable('larger than the bound');
    return { $: 'buf', v: value.toString('hex') };
  }
  if (value instanceof Map && Object.getPrototypeOf(value) === Map.prototype)
    return { $: 'map', v: [...value].map(([k, x]) => [encode(k, budget, seen), encode(x, budget, seen)]) };
  if (value instanceof Set && Object.getPrototypeOf(value) === Set.prototype) return { $: 'set', v: [...value].map((x) => encode(x, budget, seen)) };
  if (value instanceof RegExp && Object.getPrototypeOf(value) === RegExp.prototype) return { $: 're', v: value.source, f: value.flags };
  if (!plainProto(value)) throw new Unpinnable(`an instance of ${className(value) || 'a class'}`);
  if (Object.getOwnPropertySymbols(value).length) throw new Unpinnable('symbol keys');
  const o = {};
  for (const k of Object.keys(value)) {
    const d = Object.getOwnPropertyDescriptor(value, k);
    if (d && d.get) throw new Unpinnable('a getter');
    Object.defineProperty(o, k, { value: encode(value[k], budget, seen), enumerable: true, writable: true, configurable: true });
  }
  // a null-prototype object (a dictionary) is written as one: deepStrictEqual compares prototypes
  return Object.getPrototypeOf(value) === null ? { $: 'obj', v: o, np: true } : { $: 'obj', v: o };
}

function className(value) {
  try {
    const c = value && value.constructor;
    return typeof c === 'function' && typeof c.name === 'string' ? c.name : undefined;
  } catch {
    return undefined;
  }
}

/** Tries to encode; `{ok: false, why}` when the value cannot be pinned. */
function tryEncode(value, bound, volatile) {
  try {
    return { ok: true, v: encode(value, { left: bound, volatile }) };
  } catch (e) {
    if (e instanceof Unpinnable) return { ok: false, why: e.message };
    return { ok: false, why: `encoding threw ${e && e.message}` };
  }
}

// Prototypes of the language and of node: their methods are not the project's to test (an emitter is
// listened to and a stream consumed by the search's own steps instead).
const STOP = new Set([Object.prototype, Function.prototype, Array.prototype, Error.prototype, Promise.prototype, Map.prototype, Set.prototype, null]);
(() => {
  const stream = require('node:stream');
  const events = require('node:events');
  for (const C of [events.EventEmitter, stream.Stream, stream.Readable, stream.Writable, stream.Duplex, stream.Transform, stream.PassThrough]) STOP.add(C.prototype);
  const gen = Object.getPrototypeOf(function* () {}).prototype;
  const agen = Object.getPrototypeOf(async function* () {}).prototype;
  for (const p of [gen, Object.getPrototypeOf(gen), agen, Object.getPrototypeOf(agen)]) STOP.add(p);
  // Buffers, typed arrays, dates and the other built-ins: their methods test the platform, not the project.
  const typed = Object.getPrototypeOf(Uint8Array.prototype);
  for (const C of [Buffer, Uint8Array, Date, RegExp, ArrayBuffer, DataView, WeakMap, WeakSet, String, Number, Boolean, Symbol, BigInt]) STOP.add(C.prototype);
  STOP.add(typed);
})();
const SKIP = new Set(['constructor', '__proto__', '__defineGetter__', '__defineSetter__', '__lookupGetter__', '__lookupSetter__']);
// Own state node's EventEmitter and streams give every instance (`_events`, `_readableState`…): node's,
// not the class's, and `_events` is a null-prototype object a literal `{}` never deep-equals.
const NODE_STATE = (() => {
  const stream = require('node:stream');
  const events = require('node:events');
  const keys = new Set();
  for (const C of [events.EventEmitter, stream.Readable, stream.Writable, stream.Duplex, stream.Transform, stream.PassThrough])
    for (const k of Object.keys(new C())) keys.add(k);
  return (value, key) => keys.has(key) && value instanceof events.EventEmitter;
})();

/** Methods and accessors along the prototype chain (nearest first), without Object's own. */
function members(value) {
  const out = [];
  const seen = new Set();
  let proto = typeof value === 'function' ? value.prototype : Object.getPrototypeOf(value);
  for (let depth = 0; proto && !STOP.has(proto) && depth < 6; depth++, proto = Object.getPrototypeOf(proto)) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (SKIP.has(name) || seen.has(name)) continue;
      seen.add(name);
      const d = Object.getOwnPropertyDescriptor(proto, name);
      if (d.get) out.push({ name, kind: 'get' });
      else if (typeof d.value === 'function') out.push({ name, kind: 'method', arity: d.value.length });
    }
  }
  return out;
}

/** Own function-valued properties (a factory's object of methods, a class's static methods). */
function ownFunctions(value) {
  const out = [];
  for (const name of Object.getOwnPropertyNames(value)) {
    if (SKIP.has(name) || name === 'prototype' || name === 'caller' || name === 'arguments') continue;
    const d = Object.getOwnPropertyDescriptor(value, name);
    if (d && typeof d.value === 'function') out.push({ name, kind: 'method', arity: d.value.length });
  }
  return out;
}

function isClass(fn) {
  try {
    if (/^class[\s{]/.test(Function.prototype.toString.call(fn))) return true;
  } catch {
    return false;
  }
  const p = fn.prototype;
  return !!p && Object.getOwnPropertyNames(p).some((n) => n !== 'constructor');
}

function shapeOf(value) {
  const t = typeof value;
  if (value === null || (t !== 'object' && t !== 'function')) return { t };
  const s = { t, cls: className(value) };
  if (t === 'function') {
    s.arity = value.length;
    s.ctor = isClass(value);
    s.fnKind = Object.prototype.toString.call(value).slice(8, -1); // AsyncFunction, GeneratorFunction, Function
    s.statics = ownFunctions(value);
    if (s.ctor) s.proto = members(value);
    return s;
  }
  s.methods = [...members(value), ...ownFunctions(value)];
  s.thenable = typeof value.then === 'function';
  s.iter = typeof value[Symbol.iterator] === 'function' && typeof value.next === 'function';
  s.asyncIter = typeof value[Symbol.asyncIterator] === 'function';
  s.emitter = typeof value.on === 'function' && typeof value.emit === 'function';
  s.stream = s.emitter && typeof value.pipe === 'function';
  s.writable = s.emitter && typeof value.write === 'function' && typeof value.end === 'function';
  return s;
}

function isFunctionProp(value, k) {
  const d = Object.getOwnPropertyDescriptor(value, k);
  return !!d && !d.get && typeof d.value === 'function';
}

function custom(value, name) {
  const f = value[name];
  return typeof f === 'function' && f !== Object.prototype[name] && f !== Array.prototype[name];
}

/**
 * Observers of an instance, in a fixed order, each an expression suffix and its pinned value:
 * `spread` ({ ...x }) when all own state pins, else each own property; getters; String(x); valueOf; toJSON.
 */
function observers(value, bound, volatile, max = 8) {
  const out = [];
  const add = (expr, get) => {
    if (out.length >= max) return;
    let v;
    try {
      v = get();
    } catch {
      return;
    }
    const e = tryEncode(v, bound, volatile);
    if (e.ok) out.push({ expr, v: e.v });
  };
  // state, not methods bound to the instance (`this.get = this.get.bind(this)`) nor node's own fields
  const keys = Object.keys(value).filter((k) => /^[A-Za-z_$][\w$]*$/.test(k) && !NODE_STATE(value, k) && !isFunctionProp(value, k));
  const all = keys.length > 0 && keys.length === Object.keys(value).length && keys.every((k) => tryEncode(value[k], bound, volatile).ok);
  if (all && keys.length <= 12) add('spread', () => ({ ...value }));
  else for (const k of keys.slice(0, 6)) add(`.${k}`, () => value[k]);
  for (const m of members(value).filter((m) => m.kind === 'get').slice(0, 6)) add(`.${m.name}`, () => value[m.name]);
  if (custom(value, 'toString')) add('String', () => String(value));
  if (custom(value, 'valueOf')) add('.valueOf()', () => value.valueOf());
  if (typeof value.toJSON === 'function') add('.toJSON()', () => value.toJSON());
  return out;
}

/** An error as the test sees it: name, message, and whether the engine raised it (a bad argument) rather than the code. */
function describeError(e, root) {
  const isObj = e !== null && (typeof e === 'object' || typeof e === 'function');
  const name = isObj && typeof e.name === 'string' ? e.name : typeof e;
  const message = isObj ? String(e.message) : String(e);
  const engine = /Cannot read propert|Cannot set propert|is not a function|is not iterable|Cannot use 'in' operator|is not a constructor|Cannot convert undefined or null|Cannot destructure|Maximum call stack|Invalid array length|Cannot create property|undefined is not|null is not|is not defined|Reduce of empty array|Class constructor .* cannot be invoked/.test(message);
  const stack = isObj && typeof e.stack === 'string' ? e.stack : '';
  const own = !!root && stack.split('\n').slice(1, 3).some((l) => l.includes(root) && !l.includes('node_modules'));
  return { name, message, engine, own, error: isObj && e instanceof Error };
}

module.exports = { decode, tryEncode, shapeOf, observers, describeError, members, ownFunctions, isClass, className };
