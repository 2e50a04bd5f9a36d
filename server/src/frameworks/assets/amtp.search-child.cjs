// The search child (started by server/src/search/child.ts with amtp.char-nonet.cjs and
// amtp.search-guard.cjs preloaded, a temporary HOME and cwd, a scrubbed env and a heap limit). It
// stays up for one module and answers over its IPC channel:
//   {type:'init', module, root, typescript, overrides, bound, limits}
//     → {type:'ready', exports, constants, texts} or {type:'ready', load:{name, message}}
//   {type:'run', seq:{id, steps, files}, seed, mutant, hitLimit, trace, clockStepMs}
//     → {type:'result', id, obs, cover, texts, guard, net, uncaught, reached}
// With `overrides` (the mutation engine's instrumented text: Stryker's mutant schemata) `mutant` is the
// active mutant and `hitLimit` how often its code may run before it throws (a mutant that loops for
// ever); `trace` asks which mutants the run reached (`reached`: id → hits), and `noCoverage` in init
// skips the block coverage such a child does not need.
// Math.random is seeded per sequence (so what the search keeps does not depend on which numbers came
// first; the stability run uses another seed); a sequence's coverage is taken around it alone.
'use strict';
const path = require('node:path');
const loader = require('./amtp.search-load.cjs');
const cover = require('./amtp.search-cover.cjs');
const { runSequence, makePending, follow } = require('./amtp.search-exec.cjs');
const { shapeOf, tryEncode } = require('./amtp.search-observe.cjs');

const guard = globalThis.__amtpGuard;
let mod;
let job;
let env;
const sent = new Set();
const uncaught = [];
process.on('uncaughtException', (e) => uncaught.push(String(e && e.message)));
process.on('unhandledRejection', (e) => uncaught.push(String(e && e.message)));

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The text of each project file coverage names that the parent has not been sent yet. */
function newTexts(files) {
  const texts = {};
  for (const rel of Object.keys(files)) {
    if (sent.has(rel)) continue;
    sent.add(rel);
    try {
      texts[rel] = loader.textOf(path.join(job.root, rel));
    } catch {
      /* gone: no probes for it */
    }
  }
  return texts;
}

async function describeFn(fn, keys) {
  const s = shapeOf(fn);
  const loc = await cover.locate(fn);
  const rel = loc && cover.ownFile(loc.file, job.root) ? path.relative(job.root, loc.file).split(path.sep).join('/') : undefined;
  const proto = [];
  for (const m of s.proto || []) {
    const d = m.kind === 'method' ? await cover.locate(fn.prototype[m.name]).catch(() => undefined) : undefined;
    proto.push({ ...m, at: d && cover.ownFile(d.file, job.root) ? where(d) : undefined });
  }
  const statics = [];
  for (const m of s.statics || []) {
    const d = await cover.locate(fn[m.name]);
    statics.push({ ...m, at: d && cover.ownFile(d.file, job.root) ? where(d) : undefined });
  }
  return { path: keys, arity: s.arity, ctor: s.ctor, fnKind: s.fnKind, name: fn.name, at: rel ? where(loc) : undefined, proto, statics };
}

function where(loc) {
  return { file: path.relative(job.root, loc.file).split(path.sep).join('/'), line: loc.line, column: loc.column };
}

/** Every function and class reachable from the module value through namespaces (two levels), and its plain constants. */
async function discover(value) {
  const fns = [];
  const constants = [];
  const seen = new Set();
  const walk = async (v, keys, depth) => {
    if (v === null || (typeof v !== 'object' && typeof v !== 'function')) {
      if (keys.length) {
        const e = tryEncode(v, 50, []);
        if (e.ok) constants.push({ path: keys, v: e.v });
      }
      return;
    }
    if (seen.has(v) || depth > 2 || fns.length > 300) return;
    seen.add(v);
    if (typeof v === 'function') {
      fns.push(await describeFn(v, keys));
      for (const m of shapeOf(v).statics || []) if (typeof v[m.name] === 'function' && depth < 2) await walk(v[m.name], [...keys, m.name], depth + 1);
      return;
    }
    const e = tryEncode(v, 200, []);
    if (e.ok && keys.length) constants.push({ path: keys, v: e.v });
    for (const k of Object.keys(v)) {
      if (k === '__esModule') continue;
      let x;
      try { x = v[k]; } catch { continue; }
      await walk(x, [...keys, k], depth + 1);
    }
  };
  await walk(value, [], 0);
  return { fns, constants };
}

async function init(msg) {
  job = msg;
  loader.install(msg);
  await cover.start();
  try {
    guard.loading = true;
    mod = await loader.load(msg.module);
  } catch (e) {
    return { type: 'ready', load: { name: e && e.name, message: String(e && e.message) } };
  } finally {
    guard.loading = false;
  }
  const loaded = await cover.take(job.root); // loading is nobody's sequence, but its files' texts go to the parent
  env = {
    root: job.root,
    sandbox: process.cwd(),
    guard,
    pending: makePending(process.getActiveResourcesInfo()),
    limits: msg.limits,
    waiting: (ms) => process.send({ type: 'wait', ms }),
  };
  const found = await discover(mod);
  return { type: 'ready', exports: found.fns, constants: found.constants, shape: shapeOf(mod), texts: newTexts(loaded) };
}

/**
 * A slow machine's clock while one sequence runs: each read of Date.now or performance.now is `step`
 * ms later than the real time plus every earlier read's step. Returns what puts the real clock back.
 */
function slowClock(step) {
  const realNow = Date.now;
  const perf = globalThis.performance;
  const realPerfNow = perf.now.bind(perf);
  let offset = 0;
  Date.now = () => realNow() + (offset += step);
  Object.defineProperty(perf, 'now', { value: () => realPerfNow() + (offset += step), configurable: true, writable: true });
  return () => {
    Date.now = realNow;
    delete perf.now;
  };
}

async function run(msg) {
  Math.random = mulberry32(msg.seed);
  const realClock = msg.clockStepMs ? slowClock(msg.clockStepMs) : undefined;
  const ns = (globalThis.__stryker__ = globalThis.__stryker__ || {});
  ns.activeMutant = msg.mutant;
  ns.hitCount = msg.mutant === undefined ? undefined : 0;
  ns.hitLimit = msg.mutant === undefined ? undefined : msg.hitLimit || 100000;
  ns.currentTestId = msg.trace ? msg.seq.id : undefined;
  const guardBefore = guard.tries.length;
  const netBefore = globalThis.__amtpNetworkTries || 0;
  const uncaughtBefore = uncaught.length;
  // The last take reset the counters: what runs between sequences is the harness's, not a project file's.
  let obs;
  try {
    obs = await runSequence(msg.seq, mod, env);
  } finally {
    if (realClock) realClock();
  }
  ns.activeMutant = undefined;
  ns.hitCount = undefined;
  ns.currentTestId = undefined;
  let reached;
  if (msg.trace) {
    const per = ns.mutantCoverage && ns.mutantCoverage.perTest;
    reached = (per && per[msg.seq.id]) || {};
    if (per) delete per[msg.seq.id];
  }
  const files = job.noCoverage ? {} : await cover.take(job.root);
  return {
    type: 'result',
    id: msg.seq.id,
    obs,
    cover: files,
    texts: newTexts(files),
    guard: guard.tries.slice(guardBefore),
    net: (globalThis.__amtpNetworkTries || 0) - netBefore,
    uncaught: uncaught.slice(uncaughtBefore),
    ...(reached ? { reached } : {}),
  };
}

process.on('message', (msg) => {
  const handle = msg.type === 'init' ? init(msg) : run(msg);
  handle.then(
    (reply) => process.send(reply),
    (e) => process.send({ type: 'error', message: String(e && e.stack || e) }),
  );
});

module.exports = { follow };
