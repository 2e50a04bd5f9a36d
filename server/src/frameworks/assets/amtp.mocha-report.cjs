// A mocha reporter (`--reporter <this file>`) for mocha before 9.1, whose JSON reporter prints on
// stdout, where AMTP keeps at most 8 MB of a run's output: a mutant round of node-forge@1.3.1 whose
// failures carried whole deep-equal diffs printed more, and the cut report read as no test at all.
// This one writes the JSON reporter's shape (server/src/frameworks/run/mocha.ts reads it) to the
// file its `output` option names, every text field cut to 16 KB, with the failing assertions'
// expected/actual values printed as literals (amtp.mocha-values.cjs). It uses only what every mocha
// version gives a reporter: the runner's 'pass', 'fail', 'pending' and 'end' events.
'use strict';
const fs = require('node:fs');
const { recordValues } = require('./amtp.mocha-values.cjs');

const MAX_TEXT = 16 * 1024;

function cut(value) {
  if (typeof value === 'string') return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}… (cut at ${MAX_TEXT} characters)` : value;
  if (value === undefined || value === null || typeof value !== 'object') return value;
  try {
    return cut(JSON.stringify(value));
  } catch {
    return String(value);
  }
}

function errorOf(err) {
  if (!err || typeof err !== 'object') return {};
  const out = {};
  for (const key of ['message', 'stack', 'name', 'code', 'expected', 'actual', 'generatedMessage', 'operator'])
    if (err[key] !== undefined) out[key] = cut(err[key]);
  // already literals of at most 16 KB each
  if (err.amtpValues) out.amtpValues = err.amtpValues;
  return out;
}

function entry(test, err) {
  return {
    title: test.title,
    fullTitle: typeof test.fullTitle === 'function' ? test.fullTitle() : test.title,
    file: test.file,
    duration: test.duration,
    err: errorOf(err || test.err),
  };
}

function AmtpReport(runner, options) {
  const reporterOptions = (options && (options.reporterOptions || options.reporterOption)) || {};
  const file = reporterOptions.output;
  const passes = [];
  const failures = [];
  const pending = [];
  recordValues(runner);
  runner.on('pass', (test) => passes.push(entry(test)));
  runner.on('fail', (test, err) => failures.push(entry(test, err)));
  runner.on('pending', (test) => pending.push(entry(test)));
  runner.once('end', () => {
    const tests = passes.length + failures.length + pending.length;
    const report = { stats: { tests, passes: passes.length, failures: failures.length, pending: pending.length }, passes, failures, pending };
    if (file) fs.writeFileSync(file, JSON.stringify(report));
    else process.stdout.write(JSON.stringify(report, null, 2));
  });
}

module.exports = AmtpReport;
