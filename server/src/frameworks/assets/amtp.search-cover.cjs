// Precise V8 block coverage for the search child, through node:inspector: taken (and so reset) around
// every sequence, and reduced to the segments of each project file that ran, with their execution
// counts ([start, end, count], offsets into the text V8 ran; counts are 0 or 1: binary coverage). server/src/search/probes.ts maps them to
// statements and branches. Also finds where a function is defined ([[FunctionLocation]]), so the
// parent can read that function's parameters and literals from its syntax tree.
'use strict';
const path = require('node:path');
const inspector = require('node:inspector');
const { fileURLToPath } = require('node:url');

const session = new inspector.Session();
session.connect();
const post = (method, params) =>
  new Promise((resolve, reject) => session.post(method, params, (err, r) => (err ? reject(err) : resolve(r))));

const scripts = new Map(); // scriptId → absolute file

async function start() {
  await post('Profiler.enable');
  // Binary block coverage: a take then costs what ran since the last one (with call counts, V8
  // reports every function of every script each time, about 3 ms on a small heap).
  await post('Profiler.startPreciseCoverage', { callCount: false, detailed: true });
}

function fileOf(url) {
  try {
    return url.startsWith('file:') ? fileURLToPath(url) : url;
  } catch {
    return undefined;
  }
}

function ownFile(file, root) {
  return !!file && path.isAbsolute(file) && file.startsWith(root + path.sep) && !file.includes(`${path.sep}node_modules${path.sep}`);
}

/** Innermost count at every point, as merged segments with a count above zero. */
function segments(functions) {
  const ranges = functions.flatMap((f) => f.ranges).sort((a, b) => a.startOffset - b.startOffset || b.endOffset - a.endOffset);
  const out = [];
  const emit = (from, to, count) => {
    if (to <= from || count <= 0) return;
    const last = out[out.length - 1];
    if (last && last[1] === from && last[2] === count) last[1] = to;
    else out.push([from, to, count]);
  };
  const stack = [];
  let pos = 0;
  for (const r of ranges) {
    while (stack.length && stack[stack.length - 1].endOffset <= r.startOffset) {
      const top = stack.pop();
      emit(pos, top.endOffset, top.count);
      pos = top.endOffset;
    }
    if (stack.length) emit(pos, r.startOffset, stack[stack.length - 1].count);
    pos = r.startOffset;
    stack.push(r);
  }
  while (stack.length) {
    const top = stack.pop();
    emit(pos, top.endOffset, top.count);
    pos = top.endOffset;
  }
  return out;
}

/** What ran since the last take, per project file (root-relative, `/`-separated). */
async function take(root) {
  const { result } = await post('Profiler.takePreciseCoverage');
  const files = {};
  for (const script of result) {
    const file = fileOf(script.url);
    if (file) scripts.set(script.scriptId, file);
    if (!ownFile(file, root)) continue;
    if (!script.functions.some((f) => f.ranges[0] && f.ranges[0].count > 0)) continue;
    const segs = segments(script.functions);
    if (segs.length) files[path.relative(root, file).split(path.sep).join('/')] = segs;
  }
  return files;
}

/** Where `fn` is defined: the absolute file and the 0-based line and column, or undefined (a native or bound function). */
async function locate(fn) {
  globalThis.__amtpProbe = fn;
  try {
    const { result } = await post('Runtime.evaluate', { expression: 'globalThis.__amtpProbe' });
    if (!result.objectId) return undefined;
    const props = await post('Runtime.getProperties', { objectId: result.objectId, ownProperties: true });
    const loc = (props.internalProperties || []).find((p) => p.name === '[[FunctionLocation]]');
    await post('Runtime.releaseObject', { objectId: result.objectId });
    if (!loc || !loc.value || !loc.value.value) return undefined;
    const { scriptId, lineNumber, columnNumber } = loc.value.value;
    const file = scripts.get(scriptId);
    return file ? { file, line: lineNumber, column: columnNumber } : undefined;
  } catch {
    return undefined;
  } finally {
    delete globalThis.__amtpProbe;
  }
}

module.exports = { start, take, locate, ownFile, segments };
