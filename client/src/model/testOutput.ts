// Maps a test command's console output to case results by the case ids in test names.
// Every framework AMTP writes for puts `tc_<12 hex>` in the test name, so one parser covers
// node:test (TAP / spec), mocha, jest, vitest and pytest -v without knowing which one ran.
import type { CaseOutcome } from './runsModel';

const CASE_ID = /tc_[0-9a-f]{12}/g;
// Checked first: a line that says both (e.g. a summary "1 passing, 1 failing") is a failure line.
const FAIL = /(^|\s)not ok\b|✕|✗|×|✖|\bFAILED\b|\bFAIL\b|\bfailed\b|^\s*\d+\)\s/;
const PASS = /(^|\s)ok\b|✓|✔|√|\bPASSED\b|\bPASS\b|\bpassed\b/;

export function parseTestOutput(output: string): Map<string, CaseOutcome> {
  const results = new Map<string, CaseOutcome>();
  // eslint-disable-next-line no-control-regex
  const clean = output.replace(/\x1b\[[0-9;]*m/g, '');
  for (const line of clean.split(/\r?\n/)) {
    const ids = line.match(CASE_ID);
    if (!ids) continue;
    const outcome: CaseOutcome | undefined = FAIL.test(line) ? 'failing' : PASS.test(line) ? 'passing' : undefined;
    if (!outcome) continue;
    for (const id of ids) {
      // A failure anywhere (e.g. a failure summary after the run) wins over an earlier pass.
      if (results.get(id) !== 'failing') results.set(id, outcome);
    }
  }
  return results;
}
