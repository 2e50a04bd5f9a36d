// ava: `ava --tap`, read with tap-parser (frameworks/run/tapTree.ts). Tests are flat points named
// `title` (one file) or `file › title`; a file that did not load gives an uncaught-error point named
// `Name: message`, then "FILE exited with a non-zero exit code".
import { fileURLToPath } from 'node:url';
import type { Parsed, TestOutcome } from '../run/results';
import { counted, relOf } from '../run/results';
import { runnerEntryOf, type RunnerPackage } from '../run/runnerPackage';
import type { FrameworkRunner } from '../run/runnerTypes';
import type { TapPoint } from '../run/tapTree';
import { diagText, tapTree } from '../run/tapTree';

const AVA: RunnerPackage = { pkg: 'ava', command: 'ava', known: 'ava/entrypoints/cli.mjs' };

export const avaRunner: FrameworkRunner = {
  package: AVA,
  invocation(files, _out, opts) {
    const names = opts.grep === undefined ? [] : Array.isArray(opts.grep) ? opts.grep : [opts.grep];
    // --match takes a title (a pattern without `*` matches the whole title)
    const match = names.flatMap((name) => ['--match', name]);
    return {
      cmd: process.execPath,
      args: [runnerEntryOf(opts.binDir, AVA), '--tap', '--timeout=60s', ...match, ...(opts.args ?? []), ...files],
      read: (o, dir) => avaResults(o, dir),
    };
  },
};

export function avaResults(output: string, dir: string): Parsed {
  const tests: TestOutcome[] = [];
  const errors = new Map<string, string[]>();
  for (const p of tapTree(output).points) {
    if (p.depth > 0) continue;
    if (!isFileError(p)) tests.push(outcome(p));
    else {
      const file = errorFile(p, dir);
      errors.set(file, [...(errors.get(file) ?? []), failureMessage(p)]);
    }
  }
  return counted(
    tests,
    [...errors].map(([file, messages]) => ({ file, message: messages.join('\n') })),
  );
}

/** ava's own points about a file: its exit, or an error thrown outside any test (no assertion, named `Name: message`). */
function isFileError(p: TapPoint): boolean {
  if (p.ok) return false;
  if (/ exited with (a non-zero exit code|exit code)/.test(p.name)) return true;
  const d = p.diag ?? {};
  return d.assertion === undefined && typeof d.name === 'string' && p.name === `${d.name}: ${diagText(d.message) ?? ''}`;
}

// ava's TAP carries no expected/actual values, only its printed diff (`details`): the verifier parses that text.
function outcome(p: TapPoint): TestOutcome {
  const status: TestOutcome['status'] = p.skipped ? 'skipped' : p.ok ? 'passed' : 'failed';
  return { name: p.name, status, ...(status === 'failed' ? { message: failureMessage(p) } : {}) };
}

/** The assertion's message, which assertion failed, and ava's labelled details (the diff) in full. */
function failureMessage(p: TapPoint): string {
  const d = p.diag ?? {};
  const details =
    d.details && typeof d.details === 'object'
      ? Object.entries(d.details as Record<string, unknown>).map(([label, v]) => `${label}\n${diagText(v)}`)
      : [];
  const head = [
    typeof d.name === 'string' && d.name !== 'AssertionError' ? d.name : '',
    diagText(d.message) ?? '',
    diagText(d.assertion) ?? '',
  ]
    .filter(Boolean)
    .join(': ');
  return [head || p.name, ...details].join('\n').trim();
}

/** "FILE exited with …" names the file; an error point's `at:` location does otherwise. */
function errorFile(p: TapPoint, dir: string): string {
  const exited = /^(.+?) exited with /.exec(p.name);
  if (exited) return relOf(dir, exited[1]);
  const at = typeof p.diag?.at === 'string' ? /^'?((?:file:\/\/)?[^:']+(?::[^\d][^:']*)?)/.exec(p.diag.at)?.[1] : undefined;
  if (at) return relOf(dir, at.startsWith('file://') ? fileURLToPath(at) : at);
  return '(ava)';
}
