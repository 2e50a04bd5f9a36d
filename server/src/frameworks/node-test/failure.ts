// node:assert messages, as node:test (TAP YAML, `expected:`/`actual:` appended) and mocha report them:
//   Expected values to be strictly equal:\n\n'7  ' !== '007'
//   Expected values to be strictly deep-equal:\n+ actual - expected\n\n{\n  a: 1,\n+   b: 'x'\n-   b: 'y'\n}
import { sidesOfDiff, stripNoise, type ParsedAssertion } from '../failureText';

export function parseNodeAssert(message: string): ParsedAssertion | undefined {
  const m = stripNoise(message).replace(/^AssertionError(?: \[ERR_ASSERTION\])?: /, '');
  if (!/^Expected values to be (?:strictly |loosely )?(?:deep-)?equal/.test(m) && !/^Expected "actual" to be/.test(m)) return yamlSides(m);
  const body = withoutYaml(m).split('\n').slice(1);
  const diffAt = body.findIndex((l) => /^\+ actual - expected/.test(l));
  if (diffAt >= 0) {
    const rest = body.slice(diffAt + 1);
    const diff = rest.slice(rest.findIndex((l) => l.trim() !== ''));
    return sidesOfDiff(trimEnd(diff), '+');
  }
  // `actual !== expected`, on one line, after a blank line
  const text = body.join('\n').trim();
  const split = text.lastIndexOf(' !== ');
  if (split < 0) return yamlSides(m);
  return { actual: text.slice(0, split), expected: text.slice(split + 5) };
}

/** node:test adds the error's `expected`/`actual` as YAML; only one-line values are usable there. */
function yamlSides(m: string): ParsedAssertion | undefined {
  const e = /^expected: (.+)$/m.exec(m)?.[1];
  const a = /^actual: (.+)$/m.exec(m)?.[1];
  return e !== undefined && a !== undefined ? { expected: e, actual: a } : undefined;
}

function withoutYaml(m: string): string {
  return m.replace(/\nexpected: .*\nactual: .*$/, '');
}

function trimEnd(lines: string[]): string[] {
  let n = lines.length;
  while (n && !lines[n - 1].trim()) n--;
  return lines.slice(0, n);
}
