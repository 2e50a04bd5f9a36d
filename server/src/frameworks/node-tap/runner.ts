// node-tap (the `tap` package): `tap --reporter=tap`, read with tap-parser (frameworks/run/tapTree.ts).
// Each file is a top-level subtest; its `t.test(...)` blocks are AMTP's tests, their points the
// assertions. A file with no tests that failed did not load (its stderr comes as non-TAP lines).
import type { Parsed, TestOutcome } from '../run/results';
import { counted, relOf } from '../run/results';
import { runnerEntryOf, runnerVersionOf, type RunnerPackage } from '../run/runnerPackage';
import type { FrameworkRunner } from '../run/runnerTypes';
import { grepOf } from '../run/runnerTypes';
import type { TapPoint } from '../run/tapTree';
import { diagText, tapTree } from '../run/tapTree';
import { fromYaml } from '../run/reportedValues';

// tap 15–17 take --no-coverage instead of --disable-coverage (below); before 15, t.equal was not strict.
const TAP: RunnerPackage = { pkg: 'tap', command: 'tap', known: 'tap/dist/esm/run.mjs', minMajor: 15 };

export const nodeTapRunner: FrameworkRunner = {
  package: TAP,
  invocation(files, _out, opts) {
    const g = grepOf(opts, 'regex');
    const grep = g ? [`--grep=${g}`] : [];
    // tap measures coverage itself and fails below 100%; AMTP measures coverage with c8 instead.
    // tap 18 renamed the switch: 15–17 (still pinned by projects) take --no-coverage.
    const major = runnerVersionOf(opts.binDir, TAP)?.[0];
    const noCoverage = major !== undefined && major < 18 ? '--no-coverage' : '--disable-coverage';
    return {
      cmd: process.execPath,
      args: [runnerEntryOf(opts.binDir, TAP), '--reporter=tap', noCoverage, ...grep, ...(opts.args ?? []), ...files],
      read: (o, dir) => nodeTapResults(o, dir),
    };
  },
};

export function nodeTapResults(output: string, dir: string): Parsed {
  const tree = tapTree(output);
  const tests: TestOutcome[] = [];
  const fileErrors: Parsed['fileErrors'] = [];
  for (const file of tree.points.filter((p) => p.depth === 0)) {
    if (!file.ok && !file.children.length) {
      const stderr = tree.extra.some((l) => l.includes(file.name)) ? tree.extra.join('\n').trim() : '';
      fileErrors.push({ file: relOf(dir, file.name), message: stderr || `exited with code ${diagText(file.diag?.exitCode) ?? '?'}` });
      continue;
    }
    for (const t of file.children) tests.push({ ...outcome(t), file: relOf(dir, file.name) });
  }
  return counted(tests, fileErrors);
}

function outcome(t: TapPoint): TestOutcome {
  const status: TestOutcome['status'] = t.skipped ? 'skipped' : t.ok ? 'passed' : 'failed';
  if (status !== 'failed') return { name: t.name, status };
  const failures = t.children.filter((a) => !a.ok && !a.skipped);
  // tap gives wanted/found only when it cannot diff them (values of two types); otherwise only the diff, parsed from the text.
  const first = failures[0]?.diag;
  const values = first && 'wanted' in first && 'found' in first ? fromYaml(first.wanted, first.found) : undefined;
  const message =
    failures.map((a) => [a.name, diagText(a.diag?.diff) ?? diagText(a.diag?.message) ?? ''].filter(Boolean).join('\n')).join('\n') ||
    diagText(t.diag?.message) ||
    'failed';
  return { name: t.name, status, message, ...values };
}
