// Given to mocha as the first spec file when AMTP measures each test's coverage in one process
// (server/src/coverage/perTest.ts). Hooks a spec file registers outside any describe() belong to
// mocha's root suite and run around every test of every file, in every mocha version (root-hook
// plugins need mocha 8). Loading it first also starts the coverage before any test file loads.
/* global beforeEach, afterEach */
'use strict';
require('./amtp.v8-pertest.cjs');
// a test file that does not load fails alone, in this same run (not mocha's whole run)
require('./amtp.mocha-load-errors.cjs');

beforeEach(function amtpTakeBefore() {
  if (globalThis.__amtpPerTest) globalThis.__amtpPerTest.take('');
});

afterEach(function amtpTakeAfter() {
  const t = this.currentTest;
  if (globalThis.__amtpPerTest && t) globalThis.__amtpPerTest.take(t.fullTitle(), t.file);
});
