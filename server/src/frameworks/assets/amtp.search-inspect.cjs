// Inspector observers for the search child (EvoSuite's inspector assertions): after a sequence, each
// object it made is observed through its zero-argument methods (`size()`, `isEmpty()`, `peek()`,
// `toArray()`) that are free of side effects. Never judged by name: each method is called twice, and
// it counts as an observer only when both calls give the same pinnable value and nothing it could
// change changed: the object's state (its own properties, deeply, with Map and Set contents, and what
// its observers read, for private fields), the calls of the sequence's callbacks and emitters,
// pending work, the sandbox guard's refusals and the network guard's tries. Two calls that give
// different values changed something too. The first method that changes something ends the
// inspection of every object, so no value recorded before it was affected.
'use strict';
const { members, tryEncode } = require('./amtp.search-observe.cjs');

/** methods inspected per object, at most */
const MAX_METHODS = 8;
/** nodes a state snapshot may visit before the object counts as too large to judge */
const SNAPSHOT_NODES = 4000;
const OWN = new Set(['toString', 'valueOf', 'toJSON', 'constructor']);

class TooLarge extends Error {}

/** The object's state as a string: own properties (enumerable or not) deeply, Map and Set contents, array items. */
function snapshot(value) {
  const ids = new Map();
  let nodes = 0;
  const walk = (v, depth) => {
    if (++nodes > SNAPSHOT_NODES) throw new TooLarge();
    const t = typeof v;
    if (v === null || (t !== 'object' && t !== 'function')) {
      if (t === 'number' && Number.isNaN(v)) return 'NaN';
      if (t === 'bigint' || t === 'symbol' || t === 'undefined') return `${t}:${String(v)}`;
      return JSON.stringify(v);
    }
    if (ids.has(v)) return `#${ids.get(v)}`;
    ids.set(v, ids.size);
    if (t === 'function' || depth > 8) return `f:${ids.get(v)}`;
    if (ArrayBuffer.isView(v)) return `view:${v.length}:${Array.prototype.slice.call(v, 0, 64).join(',')}`;
    const parts = [];
    if (v instanceof Map) for (const [k, x] of v) parts.push(`${walk(k, depth + 1)}=>${walk(x, depth + 1)}`);
    if (v instanceof Set) for (const x of v) parts.push(walk(x, depth + 1));
    if (v instanceof Date) parts.push(String(v.getTime()));
    for (const k of Object.getOwnPropertyNames(v)) {
      const d = Object.getOwnPropertyDescriptor(v, k);
      parts.push(`${k}:${d && 'value' in d ? walk(d.value, depth + 1) : 'accessor'}`);
    }
    return `{${parts.join(',')}}`;
  };
  return walk(value, 0);
}

function trySnapshot(value) {
  try {
    return snapshot(value);
  } catch {
    return undefined;
  }
}

/** Everything outside the objects that a method with a side effect could change. */
function world(ctx, env) {
  return {
    calls: ctx.callbacks.map((c) => c.calls.length),
    events: ctx.events.map((e) => e.list.length),
    pending: env.pending(),
    tries: env.guard.tries.length,
    net: globalThis.__amtpNetworkTries || 0,
  };
}

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Undoes what a method with a side effect left in the records of the run (its calls, events, refusals), never in the code's objects. */
function rollback(ctx, env, w) {
  ctx.callbacks.forEach((c, i) => {
    c.calls.length = Math.min(c.calls.length, w.calls[i] ?? 0);
    c.phases.length = Math.min(c.phases.length, w.calls[i] ?? 0);
  });
  ctx.events.forEach((e, i) => {
    e.list.length = Math.min(e.list.length, w.events[i] ?? 0);
    e.phases.length = Math.min(e.phases.length, w.events[i] ?? 0);
  });
  env.guard.tries.length = w.tries;
  if (globalThis.__amtpNetworkTries !== undefined) globalThis.__amtpNetworkTries = w.net;
}

/** An observer expression's value now (`spread`, `.prop`, `String`, `.m()`), to see state a snapshot cannot (private fields). */
function observeNow(value, expr) {
  try {
    if (expr === 'spread') return { ...value };
    if (expr === 'String') return String(value);
    if (expr.endsWith('()')) return value[expr.slice(1, -2)]();
    return value[expr.slice(1)];
  } catch (e) {
    return `threw ${e && e.message}`;
  }
}

/** What the object's observers (its getters, String(x), earlier inspectors) give now, as one string. */
function probe(value, obs, bound, volatile) {
  return JSON.stringify(obs.map((o) => {
    const e = tryEncode(observeNow(value, o.expr), bound, volatile);
    return e.ok ? e.v : e.why;
  }));
}

// Tried first, since the first method with a side effect ends the inspection: names that usually
// read (only the order; whether a method is an observer is judged by what its calls do).
const READER = /^(is|has|get|peek|size|length|count|to[A-Z]|can|contains|first|last|keys|values|entries|clone|copy)/;

function candidates(value) {
  const zero = members(value).filter((m) => m.kind === 'method' && m.arity === 0 && !OWN.has(m.name) && !m.name.startsWith('_'));
  return [...zero.filter((m) => READER.test(m.name)), ...zero.filter((m) => !READER.test(m.name))].slice(0, MAX_METHODS);
}

/**
 * Adds `.name()` observers to `seen[i].obs` for the objects in `values` (those with observers only: an
 * instance whose value is not pinned whole). Returns false when a method changed something, after
 * which nothing more is inspected.
 */
function inspectMethods(values, seen, ctx, env, bound, volatile) {
  for (let i = 0; i < values.length; i++) {
    const out = seen[i];
    const value = values[i];
    if (!out || !out.obs || out.same !== undefined || value === null || typeof value !== 'object') continue;
    for (const m of candidates(value)) {
      const before = trySnapshot(value);
      if (before === undefined) break;
      const outside = world(ctx, env);
      const read = probe(value, out.obs, bound, volatile);
      const changed = () => {
        rollback(ctx, env, outside);
        return false;
      };
      // state a snapshot cannot see (private fields) still shows in the observers: `size` after `dequeue()`
      const unchanged = () => trySnapshot(value) === before && same(world(ctx, env), outside) && probe(value, out.obs, bound, volatile) === read;
      let a;
      let b;
      try {
        a = value[m.name]();
        if ((a !== null && typeof a === 'object' && typeof a.then === 'function') || !unchanged()) return changed();
        b = value[m.name]();
      } catch {
        return changed();
      }
      if (!unchanged()) return changed();
      const ea = tryEncode(a, bound, volatile);
      const eb = tryEncode(b, bound, volatile);
      // two calls that give different values changed something (or read the clock): nothing after them is trusted
      if (ea.ok !== eb.ok || (ea.ok && JSON.stringify(ea.v) !== JSON.stringify(eb.v))) return changed();
      if (ea.ok) out.obs.push({ expr: `.${m.name}()`, v: ea.v });
    }
  }
  return true;
}

module.exports = { inspectMethods, snapshot };
