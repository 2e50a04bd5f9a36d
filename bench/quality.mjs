// Test-quality benchmark (issues 15, 22 and 23): for each package, `amtp generate --provider offline
// --yes` (dist/cli.js: crawl → generate → engineer → verify with the real runner, 3 runs) on a fresh
// copy, then the bench's OWN measurement of what was kept (quality/independent.mjs), never AMTP's
// figure alone: the kept files run 3 times under the package's runner; statements and branches over
// ALL product files (c8 --all, jest/vitest coverage, coverage.py); kept tests by kind (documented,
// sequence, pinned value, existence, other); files the kept tests wrote into the project; the
// StrykerJS mutation score. Prints the table, the medians (statements, branches, mutation score),
// AMTP's own statement figure beside the independent one, and issues 22/23's "Done when" checks as
// PASS/FAIL lines; writes the same to bench/.work/quality[-SET].json and .md.
//
// Sets (bench/quality/subjects.mjs): `reported` (default), published packages nobody tunes on,
// fetched at bench time (npm pack / apt-get download, cached in bench/.work) and run with their own
// framework installed next to them; `seen`, the earlier reported sets; `tuning`, what the team
// develops against. Needs the network the first time (packages, the measuring tools).
// Run: npm run bench:quality [-- --set reported|seen|tuning] [--only TEXT] [--framework FW] [--no-mutation]
//     [--depth standard|deep] [--keep] [--runners declared|amtp]
// (--only: a package whose name contains TEXT, or a framework; --framework: only that framework's rows;
// --no-mutation skips Stryker;
// --runners amtp installs the framework at the version AMTP is tested with instead of the package's
// range; --keep leaves each workspace, with the written tests and .amtp/, and prints its path)
// Stryker is CPU heavy: it runs with concurrency 1, packages one after another, each under a time limit.
import { parseArgs } from 'node:util';
import { measure } from './quality/measure.mjs';
import { checks, printChecks, table, writeResults } from './quality/report.mjs';
import { REPORTED, SEEN, TUNING } from './quality/subjects.mjs';

const { values } = parseArgs({
  options: {
    set: { type: 'string', default: 'reported' },
    depth: { type: 'string' },
    only: { type: 'string' },
    framework: { type: 'string' },
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
    if (values.framework && fw !== values.framework) continue;
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
    // after every package, so a run cut short keeps what it measured
    writeResults(rows, values.set, values.depth, checks(rows), table(rows, values.set, values.depth));
  }
}

const result = checks(rows);
const markdown = `${table(rows, values.set, values.depth)}\n${printChecks(result)}`;
console.log(`\n${markdown}`);
console.log(`\nJSON: ${writeResults(rows, values.set, values.depth, result, markdown)} (and .md)`);
