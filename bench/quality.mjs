// Test-quality benchmark (issue 15, point 8): for each package, `amtp generate --provider offline
// --yes` (dist/cli.js: crawl → generate → engineer → verify with the real runner, 3 runs) on a fresh
// copy, then the kept tests run 3 more times by the bench. Prints per package: modules, tests written
// and kept, kept tests passing 3 of 3, statement coverage, coverage beyond import, the share of kept
// tests that only check existence or arity, wall time; then the medians and issue 15's "Done when"
// checks as PASS/FAIL lines. Writes the same figures to bench/.work/quality.json (quality-tuning.json for
// the tuning set, quality-seen.json for the first reported set; a run with --only overwrites it with its subset).
//
// Sets (bench/quality/subjects.mjs): `reported` (default) are published packages nobody tunes on,
// fetched at bench time (npm pack / apt-get download, cached in bench/.work) and run with their own
// test framework installed next to them; `seen` the first such set, looked at while fixing what it
// found (so now tuned); `tuning` are the packages the team develops against.
// Needs `npm run build` first (npm run bench:quality does it) and, the first time, the network.
// Run: node --import tsx bench/quality.mjs [--set reported|seen|tuning] [--depth standard|deep] [--only TEXT] [--keep]
//     [--runners declared|amtp]
// (--runners amtp: install the framework at the version AMTP is tested with instead of the range the
// package declares, to tell a runner AMTP cannot drive from a weak test suite)
// (--keep leaves each workspace, with the written tests and .amtp/, in place and prints its path)
import { parseArgs } from 'node:util';
import { measure } from './quality/measure.mjs';
import { checks, printChecks, table, writeResults } from './quality/report.mjs';
import { REPORTED, SEEN, TUNING } from './quality/subjects.mjs';

const { values } = parseArgs({
  options: {
    set: { type: 'string', default: 'reported' },
    depth: { type: 'string' },
    only: { type: 'string' },
    keep: { type: 'boolean', default: false },
    runners: { type: 'string', default: 'declared' },
    'no-mutation': { type: 'boolean', default: false },
  },
});
const SETS = { reported: REPORTED, seen: SEEN, tuning: TUNING };
const subjects = SETS[values.set];
if (!subjects || !['declared', 'amtp'].includes(values.runners)) {
  console.error(`usage: --set ${Object.keys(SETS).join('|')} (got "${values.set}"), --runners declared|amtp (got "${values.runners}")`);
  process.exit(2);
}

const rows = [];
for (const s of subjects) {
  for (const fw of s.frameworks) {
    if (values.only && !s.name.includes(values.only) && fw !== values.only) continue;
    process.stderr.write(`${s.name} × ${fw} … `);
    let row;
    try {
      row = await measure(s, fw, { depth: values.depth, keep: values.keep, runners: values.runners, mutation: !values['no-mutation'] });
    } catch (e) {
      // A package that cannot be fetched or installed is reported, not skipped.
      row = {
        subject: s.name,
        framework: fw,
        runner: '–',
        modules: 0,
        about50: !!s.about50,
        kinds: s.kinds,
        status: 'not run',
        problem: e.message,
        ms: 0,
      };
    }
    process.stderr.write(`${row.status}, ${row.kept ?? 0} kept, ${(row.ms / 1000).toFixed(0)} s\n`);
    rows.push(row);
  }
}

const result = checks(rows);
const markdown = `${table(rows, values.set, values.depth)}\n${printChecks(result)}`;
console.log(`\n${markdown}`);
console.log(`\nJSON: ${writeResults(rows, values.set, values.depth, result, markdown)} (and .md)`);
