// Given to mocha as the first spec file when AMTP measures each test's coverage in one process
// (server/src/coverage/perTest.ts). Hooks a spec file registers outside any describe() belong to
// mocha's root suite and run around every test of every file, in every mocha version (root-hook
// plugins need mocha 8). Loading it first also starts the coverage before any test file loads.
/* global beforeEach, afterEach */
'use strict';
require('./amtp.v8-pertest.cjs');
// a test file that does not load fails alone, in this same run (not mocha's whole run)
require('./amtp.mocha-load-errors.cjs');

// The suite of the test whose coverage was taken last. Each take costs about a millisecond (V8 reports
// every script), so the take before a test is skipped when the test before it was of the same suite:
// between two such tests only mocha runs (this hook runs first of the beforeEach hooks and
// amtpTakeAfter last of the afterEach ones), and no suite's before/after-all hook.
let lastSuite;

beforeEach(function amtpTakeBefore() {
  const t = this.currentTest;
  if (lastSuite && t && t.parent === lastSuite) return;
  if (globalThis.__amtpPerTest) globalThis.__amtpPerTest.take('');
});

afterEach(function amtpTakeAfter() {
  const t = this.currentTest;
  if (globalThis.__amtpPerTest && t) globalThis.__amtpPerTest.take(t.fullTitle(), t.file);
  lastSuite = t && t.parent;
});
