// Runs one call sequence (server/src/search/sequence.ts) in the search child: each step calls an
// export, constructs a class, calls a method or a function an earlier step returned, consumes an
// iterator or stream, or listens to an emitter. Promises are awaited and callbacks passed as
// arguments record their calls, all under a deadline. The sequence ends at its first throw. Then it
// waits for the code's pending work to settle and observes, in a fixed order, what a test can check.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { decode, tryEncode, shapeOf, observers, describeError } = require('./amtp.search-observe.cjs');
const { inspectMethods } = require('./amtp.search-inspect.cjs');
const { pool } = require('./amtp.search-pool.cjs');
// The harness's own deadlines read the real clock, also while a stability run gives the program a slow one (amtp.search-child.cjs).
const realNow = Date.now;

const MAX_ITEMS = 50;

// A timeout the code unref'd keeps no event loop alive, so process.getActiveResourcesInfo() does not
// list it; yet it fires later, in whatever test runs then (retry@0.13.1's `unref` option: a retry due
// 1 s later called a function the test never gave, and failed the tests around it). Such one-shot
// timeouts count as pending until they fire or are cleared; an unref'd interval (a cache's sweep) does not.
const unrefd = new Set();
{
  const probe = setTimeout(() => {}, 0);
  clearTimeout(probe);
  const proto = Object.getPrototypeOf(probe);
  const unref = proto.unref;
  proto.unref = function () {
    if (this._repeat === null) unrefd.add(this);
    return unref.call(this);
  };
}

/** Pending async work of the code (timers, unref'd timeouts too, fs requests, sockets, thread-pool jobs), less what was pending at start. */
function makePending(baseline) {
  const base = new Map();
  for (const r of baseline) base.set(r, (base.get(r) || 0) + 1);
  const before = new Set(unrefd);
  const poolBase = pool.running;
  return () => {
    const seen = new Map();
    let n = Math.max(0, pool.running - poolBase);
    for (const r of process.getActiveResourcesInfo()) {
      seen.set(r, (seen.get(r) || 0) + 1);
      if (seen.get(r) > (base.get(r) || 0)) n++;
    }
    for (const t of unrefd) {
      if (t._destroyed || t.hasRef()) unrefd.delete(t);
      else if (!before.has(t)) n++;
    }
    return n;
  };
}

const tick = () => new Promise((r) => setImmediate(r));

/** Waits until nothing of the code is pending (timers, fs requests, sockets), or the deadline; true when settled. */
async function quiet(pending, deadline) {
  for (let i = 0; ; i++) {
    await tick();
    if (i >= 2 && pending() === 0) return true;
    if (realNow() > deadline) return false;
    if (i > 20) await new Promise((r) => setTimeout(r, 2));
  }
}

function withDeadline(promise, ms) {
  let timer;
  return Promise.race([
    Promise.resolve(promise).then((v) => ({ v }), (e) => ({ e, rejected: true })),
    new Promise((r) => { timer = setTimeout(() => r({ timeout: true }), ms); }),
  ]).finally(() => clearTimeout(timer));
}

/** A task's answer to its last argument, when that is a function (render.ts writes the same). */
function callBack(spec, args) {
  const done = args[args.length - 1];
  if (typeof done !== 'function') return;
  const answer = () => (spec.cont === 'err' ? done(new Error(`task ${spec.id} failed`)) : done(null, args.length > 1 ? args[0] : spec.id));
  if (spec.async) setImmediate(answer);
  else answer();
}

/** What a generated generator function yields (render.ts writes the same). */
function yielded(spec) {
  if (spec.gen === 'err') return Promise.reject(new Error(`task ${spec.id} failed`));
  if (spec.yields === 'thunk') return (done) => done(null, spec.id);
  if (spec.yields === 'array') return [Promise.resolve(spec.id)];
  if (spec.yields === 'object') return { value: Promise.resolve(spec.id) };
  return Promise.resolve(spec.id);
}

function makeCallback(spec, ctx) {
  const rec = { id: spec.id, calls: [], phases: [] };
  ctx.callbacks.push(rec);
  const record = (args) => {
    rec.calls.push(args);
    rec.phases.push(ctx.phase);
  };
  if (spec.gen)
    return function* (...args) {
      record(args);
      const got = yield yielded(spec);
      return spec.ret === 'first' ? args[0] : got;
    };
  const fn = function (...args) {
    record(args);
    const r = spec.ret === 'first' ? args[0] : spec.ret === 'true' ? true : spec.ret === 'false' ? false : undefined;
    if (spec.cont) {
      callBack(spec, args);
      return r;
    }
    return spec.async ? Promise.resolve(r) : r;
  };
  return fn;
}

function resolveArg(a, ctx, fresh) {
  if ('lit' in a) {
    const v = decode(a.lit);
    if (v !== null && typeof v === 'object') fresh.push({ value: v, before: a.lit });
    return v;
  }
  if ('ref' in a) return ctx.values[a.ref];
  if ('cb' in a) return makeCallback(a.cb, ctx);
  if ('tmp' in a) return path.join(ctx.tmp, a.tmp);
  if ('arr' in a) return a.arr.map((x) => resolveArg(x, ctx, []));
  if ('obj' in a) {
    const o = {};
    for (const [k, x] of Object.entries(a.obj)) Object.defineProperty(o, k, { value: resolveArg(x, ctx, []), enumerable: true, writable: true, configurable: true });
    return o;
  }
  throw new Error(`bad argument ${JSON.stringify(a)}`);
}

function follow(mod, keys) {
  let self;
  let target = mod;
  for (const k of keys) {
    self = target;
    target = target == null ? undefined : target[k];
  }
  return { self, target };
}

/** Takes at most `max` items the way the test does: `for (const item of x)` (or `for await`), breaking at `max`. */
async function consume(value, step, asyncIter, deadline) {
  const items = [];
  const max = step.max || MAX_ITEMS;
  if (!asyncIter) {
    for (const item of value) {
      items.push(item);
      if (items.length === max) break;
    }
    return { items };
  }
  const loop = (async () => {
    for await (const item of value) {
      items.push(item);
      if (items.length === max) break;
    }
  })();
  const r = await withDeadline(loop, Math.max(1, deadline - realNow()));
  if (r.timeout) return { items, timeout: true };
  if (r.rejected) throw r.e;
  return { items };
}

/** The value of one step (before awaiting). */
function call(step, mod, ctx, args) {
  switch (step.op) {
    case 'call': {
      const { self, target } = follow(mod, step.path);
      return target.apply(self, args);
    }
    case 'new': {
      const { target } = follow(mod, step.path);
      return new target(...args);
    }
    case 'method':
      return ctx.values[step.recv][step.name](...args);
    case 'callv':
      return ctx.values[step.recv](...args);
    case 'get':
      return ctx.values[step.recv][step.name];
    case 'listen': {
      const emitter = ctx.values[step.recv];
      const rec = { step: ctx.step, list: [], phases: [] };
      ctx.events.push(rec);
      for (const name of step.events) emitter.on(name, (...a) => { rec.list.push([name, ...a]); rec.phases.push(ctx.phase); });
      return undefined;
    }
    default:
      throw new Error(`bad step ${step.op}`);
  }
}

/** Tells the parent that a bounded wait of `ms` starts: its time limit counts computing, not waiting (search/child.ts). */
function waiting(ctx, ms) {
  if (ctx.waiting && ms > 0) ctx.waiting(Math.ceil(ms));
}

async function runStep(step, i, mod, ctx, limits) {
  ctx.step = i;
  const args = (step.args || []).map((a, k) => {
    const fresh = [];
    const v = resolveArg(a, ctx, fresh);
    ctx.fresh.push(...fresh.map((f) => ({ ...f, step: i, k })));
    return v;
  });
  const deadline = realNow() + limits.awaitMs;
  if (step.op === 'iter' || step.op === 'aiter') {
    ctx.phase = 'await';
    waiting(ctx, limits.awaitMs);
    const r = await consume(ctx.values[step.recv], step, step.op === 'aiter', deadline);
    ctx.phase = 'later';
    if (r.timeout) return { timeout: true };
    ctx.values[i] = r.items;
    return { ok: true, async: step.op === 'aiter' };
  }
  ctx.phase = 'sync';
  let value = call(step, mod, ctx, args);
  ctx.phase = 'await';
  let async = false;
  if (value !== null && (typeof value === 'object' || typeof value === 'function') && typeof value.then === 'function') {
    async = true;
    waiting(ctx, limits.awaitMs);
    const r = await withDeadline(value, limits.awaitMs);
    if (r.timeout) return { timeout: true };
    if (r.rejected) throw Object.assign(new Error('rejected'), { amtpRejected: r.e });
    value = r.v;
  }
  ctx.phase = 'later';
  ctx.values[i] = value;
  const cbs = ctx.callbacks.filter((c) => c.step === undefined);
  cbs.forEach((c) => (c.step = i));
  if (cbs.length) {
    waiting(ctx, deadline - realNow());
    await quiet(ctx.pending, deadline);
  }
  cbs.forEach((c) => (c.settledAt = c.calls.length));
  return { ok: true, async };
}

function observeArgs(list, bound, volatile) {
  return list.map((call) => call.map((a) => {
    const d = a !== null && typeof a === 'object' && typeof a.message === 'string' && typeof a.name === 'string' && 'stack' in a
      ? { error: { name: a.name, message: a.message } }
      : undefined;
    if (d) return d;
    const e = tryEncode(a, bound, volatile);
    return e.ok ? { v: e.v } : { why: e.why };
  }));
}

/** What a test can check after the sequence, in the order it checks it. */
function observe(seq, ctx, env) {
  const { limits } = env;
  // What the observers' own reads set off (a getter or a proxy trap that calls a callback) happens in
  // the test only when its checks read the same: such calls and events are no behaviour to wait for.
  ctx.phase = 'observe';
  const volatile = [ctx.tmp, ctx.sandbox];
  const values = ctx.results.map((r, i) => {
    if (!r || !r.ok) return undefined;
    const value = ctx.values[i];
    const e = tryEncode(value, limits.bound, volatile);
    const out = { shape: shapeOf(value) };
    const same = value !== null && (typeof value === 'object' || typeof value === 'function') ? ctx.values.indexOf(value) : -1;
    if (same >= 0 && same < i) out.same = same;
    if (e.ok) out.v = e.v;
    else {
      out.why = e.why;
      if (value !== null && typeof value === 'object' && !out.shape.thenable) out.obs = observers(value, limits.bound, volatile);
    }
    return out;
  });
  // Arguments as the steps left them, before inspecting methods changes what they alias (tinyqueue
  // keeps the array it is given: trying `pop()` would show it one item short, which no test sees).
  const mutated = [];
  for (const f of ctx.fresh) {
    const now = tryEncode(f.value, limits.bound, volatile);
    if (!now.ok || JSON.stringify(now.v) !== JSON.stringify(f.before)) mutated.push({ step: f.step, arg: f.k, v: now.ok ? now.v : undefined });
  }
  inspectMethods(ctx.values, values, ctx, env, limits.bound, volatile);
  const callbacks = ctx.callbacks.map((c) => ({ id: c.id, step: c.step, args: observeArgs(c.calls, limits.bound, volatile), phases: c.phases, settledAt: c.settledAt }));
  const events = ctx.events.map((r) => ({ step: r.step, list: observeArgs(r.list, limits.bound, volatile), phases: r.phases }));
  return { values, mutated, callbacks, events };
}

async function runSequence(seq, mod, env) {
  const { limits } = env;
  const tmp = path.join(env.sandbox, `s${seq.id.replace(/[^\w-]/g, '_')}`);
  env.guard.allowed = tmp;
  env.guard.own.clear(); // descriptors of an earlier sequence are not this one's
  // Made only when the sequence names it: creating and removing a folder costs more than a short run.
  const made = (seq.files && seq.files.length) || JSON.stringify(seq.steps).includes('"tmp":');
  if (made) fs.mkdirSync(tmp, { recursive: true });
  for (const f of seq.files || []) {
    fs.mkdirSync(path.dirname(path.join(tmp, f.path)), { recursive: true });
    fs.writeFileSync(path.join(tmp, f.path), f.content);
  }
  const ctx = { values: [], results: [], callbacks: [], events: [], fresh: [], tmp, sandbox: env.sandbox, phase: 'sync', pending: env.pending, waiting: env.waiting };
  const started = realNow();
  for (const [i, step] of seq.steps.entries()) {
    let r;
    try {
      r = await runStep(step, i, mod, ctx, limits);
    } catch (e) {
      const thrown = e && e.amtpRejected !== undefined ? e.amtpRejected : e;
      r = { ok: false, async: !!(e && e.amtpRejected !== undefined), error: describeError(thrown, env.root) };
    }
    ctx.results[i] = r;
    if (!r.ok) break;
  }
  waiting(ctx, started + limits.settleMs - realNow());
  const settled = await quiet(env.pending, started + limits.settleMs);
  const seen = observe(seq, ctx, env);
  if (made || fs.existsSync(tmp)) fs.rmSync(tmp, { recursive: true, force: true });
  env.guard.allowed = undefined;
  return { steps: ctx.results, settled, ...seen };
}

module.exports = { runSequence, makePending, follow };
