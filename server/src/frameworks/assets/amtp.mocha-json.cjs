// The reporter AMTP gives mocha 9.1 on (`--reporter <this file> --reporter-option output=FILE`):
// mocha's own JSON reporter, with the failing assertions' expected/actual values recorded first
// (amtp.mocha-values.cjs), before mocha's Base reporter turns them into text for its diff.
// server/src/frameworks/run/mocha.ts reads the report.
'use strict';
const { recordValues } = require('./amtp.mocha-values.cjs');

/** mocha's own JSON reporter, from its reporters index, which mocha has loaded before it loads this file. */
function mochaJsonReporter() {
  const index = Object.keys(require.cache).find((k) => /[\\/]mocha[\\/]lib[\\/]reporters[\\/]index\.c?js$/.test(k));
  const reporters = index ? require.cache[index].exports : require(require.resolve('mocha/lib/reporters', { paths: [process.cwd()] }));
  const json = reporters && (reporters.JSON || reporters.json);
  if (typeof json !== 'function') throw new Error("AMTP: mocha's JSON reporter was not found");
  return json;
}

function AmtpJson(runner, options) {
  recordValues(runner);
  const JSONReporter = mochaJsonReporter();
  // `new AmtpJson(…)` returns mocha's reporter itself: mocha sees its own JSON reporter.
  return new JSONReporter(runner, options);
}

module.exports = AmtpJson;
