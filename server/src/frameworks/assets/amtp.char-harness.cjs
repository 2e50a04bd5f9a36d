// The child AMTP runs to characterize a module (server/src/characterize/sandbox.ts starts it with
// --require amtp.char-nonet.cjs, a memory limit, a temporary HOME and cwd and a scrubbed env).
// argv[2] is a JSON job: { module, root, token, bound, calls: [{ id, path: [keys], args: [tagged] }] }.
// For each call it prints one line "<token> <json>" with what the call returned or threw and the
// source lines it covered (precise coverage through node:inspector, reset before every call).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL, fileURLToPath } = require('node:url');
const inspector = require('node:inspector');

const job = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const out = (o) => process.stdout.write(`${job.token} ${JSON.stringify(o)}\n`);

class Unpinnable extends Error {}

function decode(v) {
  if (Array.isArray(v)) return v.map(decode);
  if (v === null || typeof v !== 'object') return v;
  switch (v.$) {
    case 'num': return Number(v.v === '-0' ? '-0' : v.v);
    case 'undef': return undefined;
    case 'big': return BigInt(v.v);
    case 'date': return new Date(v.v);
    case 'obj': {
      // defineProperty, so a key named __proto__ is a key and not the object's prototype
      const o = {};
      for (const [k, x] of Object.entries(v.v)) Object.defineProperty(o, k, { value: decode(x), enumerable: true, writable: true, configurable: true });
      return o;
    }
    default: throw new Error(`bad tagged value ${JSON.stringify(v)}`);
  }
}

function encode(value, budget, seen) {
  if (--budget.left < 0) throw new Unpinnable('larger than the bound');
  switch (typeof value) {
    case 'string':
      budget.left -= Math.floor(value.length / 16);
      if (budget.left < 0) throw new Unpinnable('larger than the bound');
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
    if (Array.isArray(value)) return Array.from(value, (x) => encode(x, budget, seen));
    if (value instanceof Date) {
      if (Number.isNaN(value.getTime())) throw new Unpinnable('an invalid date');
      return { $: 'date', v: value.toISOString() };
    }
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) throw new Unpinnable(`an instance of ${value.constructor && value.constructor.name || 'a class'}`);
    const o = {};
    for (const k of Object.keys(value)) Object.defineProperty(o, k, { value: encode(value[k], budget, seen), enumerable: true, writable: true, configurable: true });
    return { $: 'obj', v: o };
  } finally {
    seen.delete(value);
  }
}

function lineStarts(text) {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}
const sources = new Map();
function sourceOf(file) {
  let s = sources.get(file);
  if (!s) {
    const text = fs.readFileSync(file, 'utf8');
    s = { text, starts: lineStarts(text) };
    sources.set(file, s);
  }
  return s;
}

/**
 * What ran since the last reset, in files under job.root outside node_modules: the source lines, and
 * the covered character spans [file, start, end) — finer than lines, so `if (x) return a;` taken and
 * not taken are told apart (the greedy selection in server/src/characterize/select.ts counts them).
 */
function covered(result) {
  const lines = [];
  const spans = [];
  for (const script of result) {
    let file;
    try { file = script.url.startsWith('file:') ? fileURLToPath(script.url) : script.url; } catch { continue; }
    if (!path.isAbsolute(file) || !file.startsWith(job.root + path.sep) || file.includes(`${path.sep}node_modules${path.sep}`)) continue;
    let src;
    try { src = sourceOf(file); } catch { continue; }
    const ranges = script.functions.flatMap((f) => f.ranges);
    if (!ranges.some((r) => r.count > 0)) continue;
    // Nested ranges are smaller than the ones they sit in: applying the larger first lets the inner
    // (more specific) count win, which is how V8's block coverage is meant to be read.
    ranges.sort((a, b) => (b.endOffset - b.startOffset) - (a.endOffset - a.startOffset));
    const counts = new Uint8Array(src.text.length);
    for (const r of ranges) counts.fill(r.count > 0 ? 1 : 0, r.startOffset, Math.min(r.endOffset, src.text.length));
    const rel = path.relative(job.root, file).split(path.sep).join('/');
    for (let i = 0; i < counts.length; i++) {
      if (!counts[i]) continue;
      let j = i;
      while (j < counts.length && counts[j]) j++;
      spans.push([rel, i, j]);
      i = j;
    }
    for (let l = 0; l < src.starts.length; l++) {
      const end = l + 1 < src.starts.length ? src.starts[l + 1] : src.text.length;
      for (let i = src.starts[l]; i < end; i++) {
        if (counts[i] && !/\s/.test(src.text[i])) { lines.push(`${rel}:${l + 1}`); break; }
      }
    }
  }
  return { lines, spans };
}

async function load(file) {
  try {
    return require(file);
  } catch (e) {
    if (e && (e.code === 'ERR_REQUIRE_ESM' || e.code === 'ERR_REQUIRE_ASYNC_MODULE')) return import(pathToFileURL(file).href);
    throw e;
  }
}

async function main() {
  const session = new inspector.Session();
  session.connect();
  const post = (m, p) => new Promise((res, rej) => session.post(m, p, (err, r) => (err ? rej(err) : res(r))));
  await post('Profiler.enable');
  await post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  let mod;
  try {
    mod = await load(job.module);
  } catch (e) {
    out({ load: 'failed', name: e && e.name, message: String(e && e.message) });
    return;
  }
  await post('Profiler.takePreciseCoverage'); // what loading covered is not the calls' doing
  for (const call of job.calls) {
    let self = mod;
    let target = mod;
    for (const k of call.path) { self = target; target = target == null ? undefined : target[k]; }
    const row = { id: call.id };
    const triesBefore = globalThis.__amtpNetworkTries || 0;
    try {
      if (typeof target !== 'function') throw new TypeError(`${call.path.join('.')} is not a function`);
      let value = target.apply(self, decode(call.args));
      if (value && typeof value.then === 'function') value = await value;
      try {
        row.kind = 'return';
        row.value = encode(value, { left: job.bound }, new Set());
      } catch (e) {
        if (!(e instanceof Unpinnable)) throw e;
        row.kind = 'unpinnable';
        row.why = e.message;
      }
    } catch (e) {
      row.kind = 'throw';
      row.name = e && typeof e === 'object' && typeof e.name === 'string' ? e.name : typeof e;
      row.message = e && typeof e === 'object' ? String(e.message) : String(e);
    }
    if ((globalThis.__amtpNetworkTries || 0) !== triesBefore) {
      for (const k of ['value', 'name', 'message']) delete row[k];
      row.kind = 'unpinnable';
      row.why = 'it tried to reach the network';
    }
    const { result } = await post('Profiler.takePreciseCoverage');
    Object.assign(row, covered(result));
    out(row);
  }
}

main().then(() => process.exit(0), (e) => { process.stderr.write(String(e && e.stack || e)); process.exit(70); });
