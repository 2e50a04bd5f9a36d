// Loaded by amtp.v8-pertest-mocha.cjs, the first spec file of the run that measures each test. A test
// file that throws while it loads stops mocha before any test runs ("Exception during run"), and AMTP
// then needed more runs to find which file it was and what each other file does. Here such a file's
// error becomes the failing "before all" hook of a suite named for the file (mocha's JSON report
// gives it, server/src/frameworks/run/mocha.ts reads it as the file's load error), the tests the file
// registered before it threw are taken out (mocha would run none of them), and every other file
// runs in the same process.
'use strict';
const Module = require('node:module');
const fs = require('node:fs');
const path = require('node:path');

// The title server/src/frameworks/run/mocha.ts looks for (mocha 5's report has no file field).
const TITLE = 'AMTP: the test file does not load: ';

const specs = new Set();
for (const arg of process.argv.slice(2)) {
  if (!/\.[cm]?[jt]sx?$/.test(arg)) continue;
  try {
    specs.add(fs.realpathSync(path.resolve(arg)));
  } catch {
    // not a file (an option's value)
  }
}

function failedToLoad(file, err) {
  const stack = String((err && err.stack) || err);
  const shown = new Error(stack.split('\n')[0]);
  shown.stack = stack;
  global.describe(TITLE + file, function () {
    const root = this.parent;
    if (root) {
      root.tests = root.tests.filter((t) => t.file !== file);
      root.suites = root.suites.filter((s) => s === this || s.file !== file);
    }
    global.before(function () {
      throw shown;
    });
    global.it('loads', function () {});
  });
}

for (const ext of Object.keys(Module._extensions)) {
  if (ext === '.json' || ext === '.node') continue;
  const load = Module._extensions[ext];
  Module._extensions[ext] = function (module, filename) {
    if (!specs.has(filename) || typeof global.describe !== 'function') return load.call(this, module, filename);
    try {
      return load.call(this, module, filename);
    } catch (err) {
      failedToLoad(filename, err);
    }
  };
}
