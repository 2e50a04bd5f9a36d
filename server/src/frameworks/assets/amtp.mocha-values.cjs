// A failing assertion's expected and actual values, printed in mocha's process as literals (node's
// util.inspect: a string quoted, a number bare, a class instance with its name) and kept on the error
// as `amtpValues`, which mocha's JSON reporter and AMTP's own (amtp.mocha-report.cjs) write with it.
// It must run before mocha's Base reporter sees the failure: for its diff, Base turns both values into
// text when they are of one type (9 and 8 become "9" and "8", as the strings '9' and '8' stay), and
// the report could no longer tell a string from a number. Read by server/src/frameworks/run/mocha.ts.
'use strict';
const { inspect } = require('node:util');

// A longer value is left out rather than cut: a cut literal is not the value. inspect is bounded
// too (a mutant round fails thousands of assertions, some on megabyte values), and a value it had
// to shorten (its markers below) is left out the same way.
const MAX_TEXT = 16 * 1024;
const OPTIONS = { depth: 12, breakLength: Infinity, maxArrayLength: 2000, maxStringLength: MAX_TEXT };
const SHORTENED = /\.\.\. \d+ more (?:items?|characters?)|\[(?:Object|Array)\]/;

function literal(value) {
  const text = inspect(value, OPTIONS);
  return text.length <= MAX_TEXT && !SHORTENED.test(text) ? text : undefined;
}

function printed(err) {
  if (!err || typeof err !== 'object' || !('expected' in err) || !('actual' in err)) return undefined;
  try {
    const expected = literal(err.expected);
    const actual = expected === undefined ? undefined : literal(err.actual);
    return expected !== undefined && actual !== undefined ? { expected, actual } : undefined;
  } catch {
    return undefined;
  }
}

/** Registers the recorder on mocha's runner: call it before any reporter that extends Base is made. */
function recordValues(runner) {
  runner.on('fail', (_test, err) => {
    const values = printed(err);
    if (!values) return;
    try {
      err.amtpValues = values;
    } catch {
      // a frozen error keeps its text only
    }
  });
}

module.exports = { recordValues };
