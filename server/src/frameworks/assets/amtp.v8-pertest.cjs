// Per-test V8 coverage from one test process (server/src/coverage/perTest.ts). Loaded through
// NODE_OPTIONS (node:test's file processes) or by amtp.v8-pertest-mocha.cjs (mocha). It
// starts V8's precise coverage through the inspector before any product module loads, and at every
// test boundary takes it (which resets the counters): what ran since the last boundary belongs to the
// test that just ended, what ran before a test started (loading the test files, hooks outside tests)
// to loading. Each take is one JSON line in AMTP_PERTEST_OUT: the label (the test's name as the runner
// reports it, '' for loading), its test file when known, and the workspace's scripts that ran, outside
// node_modules. It prints nothing, so the runner's report stays as it is.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const out = process.env.AMTP_PERTEST_OUT;
const root = process.env.AMTP_PERTEST_ROOT;
// node:test runs each file in its own process (NODE_TEST_CONTEXT set); its orchestrator runs no test.
const orchestrator = process.env.AMTP_PERTEST_NODE_TEST === '1' && !process.env.NODE_TEST_CONTEXT;

function start() {
  if (globalThis.__amtpPerTest) return globalThis.__amtpPerTest;
  const inspector = require('node:inspector');
  const { threadId } = require('node:worker_threads');
  const session = new inspector.Session();
  session.connect();
  // A same-thread session answers synchronously.
  const post = (method, params) => {
    let reply;
    let error;
    session.post(method, params || {}, (e, r) => {
      error = e;
      reply = r;
    });
    if (error) throw error;
    return reply;
  };
  post('Profiler.enable');
  post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  const file = path.join(out, `pertest-${process.pid}-${threadId}.jsonl`);
  const prefixes = [`file://${root}/`, `${root}/`];
  const ours = (url) => prefixes.some((p) => url.startsWith(p)) && !url.includes('/node_modules/');
  const ran = (f) => f.ranges.some((r) => r.count > 0);
  function take(label, testFile) {
    let reply;
    try {
      reply = post('Profiler.takePreciseCoverage');
    } catch (e) {
      return;
    }
    const scripts = [];
    for (const s of reply.result) {
      if (!ours(s.url) || !s.functions.some(ran)) continue;
      // Every function: one that did not run keeps only its own range (count 0), which marks its body
      // as not run; without it, the body would read as run with the code around it.
      const functions = s.functions.map((f) => (ran(f) ? f : { functionName: f.functionName, isBlockCoverage: f.isBlockCoverage, ranges: f.ranges.slice(0, 1) }));
      scripts.push({ scriptId: s.scriptId, url: s.url, functions });
    }
    if (!scripts.length) return;
    try {
      fs.appendFileSync(file, JSON.stringify({ label: label || '', file: testFile || '', scripts }) + '\n');
    } catch (e) {
      // Lost coverage of one test: it is then measured as covering nothing, never a failed test.
    }
  }
  globalThis.__amtpPerTest = { take };
  return globalThis.__amtpPerTest;
}

if (out && root && !orchestrator) {
  const { take } = start();
  if (process.env.AMTP_PERTEST_NODE_TEST === '1') {
    // Hooks on node:test's root run around every test of the file, at any depth of describe().
    const nodeTest = require('node:test');
    nodeTest.beforeEach(() => take(''));
    // node:test runs each file in its own process: the file is this process's script.
    nodeTest.afterEach((t) => take(t && t.name, process.argv[1]));
  }
}
