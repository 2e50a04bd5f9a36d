// node:test: `node --test --test-reporter=tap`, read with tap-parser (frameworks/run/tapTree.ts).
// Describe blocks are points with subtests; a file that did not load is a failed top-level point
// named after the file, its stderr printed as `#` comments before it.
import type { Parsed, TestOutcome } from '../run/results';
import { counted, relOf } from '../run/results';
import type { FrameworkRunner } from '../run/runnerTypes';
import { grepOf } from '../run/runnerTypes';
import type { TapPoint } from '../run/tapTree';
import { diagText, tapTree } from '../run/tapTree';
import { fromYaml } from '../run/reportedValues';

export const nodeTestRunner: FrameworkRunner = {
  invocation(files, _out, opts) {
    const g = grepOf(opts, 'regex');
    const grep = g ? [`--test-name-pattern=${g}`] : [];
    // opts.args are node options (a loader), so they go before --test
    return {
      cmd: process.execPath,
      args: [...(opts.args ?? []), '--test', '--test-reporter=tap', ...grep, ...files],
      read: (o, dir) => nodeTestResults(o, dir),
    };
  },
};

export function nodeTestResults(output: string, dir = ''): Parsed {
  const tests: TestOutcome[] = [];
  const fileErrors: Parsed['fileErrors'] = [];
  const walk = (points: TapPoint[], parents: string[]) => {
    for (const p of points) {
      if (p.depth === 0 && !p.ok && !p.children.length && isTestFileName(p.name)) {
        fileErrors.push({
          file: relOf(dir || '/', p.name),
          message: p.comments.join('\n').trim() || diagText(p.diag?.error) || 'the file failed to load',
        });
      } else if (p.children.length) {
        walk(p.children, [...parents, p.name]);
      } else {
        tests.push(outcome(p, [...parents, p.name].join(' ')));
      }
    }
  };
  walk(tapTree(output).points, []);
  return counted(tests, fileErrors);
}

function isTestFileName(name: string): boolean {
  return /\.(c|m)?[jt]sx?$/.test(name) && (name.startsWith('/') || name.includes('/') || name.includes('\\'));
}

function outcome(p: TapPoint, name: string): TestOutcome {
  const status: TestOutcome['status'] = p.skipped ? 'skipped' : p.ok ? 'passed' : 'failed';
  if (status !== 'failed') return { name, status };
  return {
    name,
    status,
    // node:assert's own message (its diff), which the verifier's assertion parsers read when the values below are not given.
    message: diagText(p.diag?.error) ?? 'failed',
    ...(p.diag && 'expected' in p.diag && 'actual' in p.diag ? fromYaml(p.diag.expected, p.diag.actual) : {}),
  };
}
