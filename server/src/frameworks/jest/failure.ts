// jest's matcher messages:
//   expect(received).toBe(expected) // Object.is equality\n\nExpected: "007"\nReceived: "7  "
//   expect(received).toEqual(expected) // deep equality\n\n- Expected  - 1\n+ Received  + 1\n\n  Object {…}
import { sidesOfDiff, stripNoise, type ParsedAssertion } from '../failureText';

export function parseJest(message: string): ParsedAssertion | undefined {
  const m = stripNoise(message).replace(/^Error: /, '');
  if (!/^expect\(/.test(m)) return undefined;
  const lines = m.split('\n');
  const e = lines.findIndex((l) => /^Expected(?: value)?: /.test(l));
  const r = lines.findIndex((l) => /^Received(?: value)?: /.test(l));
  if (e >= 0 && r > e) {
    return {
      expected: block(lines, e).replace(/^Expected(?: value)?: /, ''),
      actual: block(lines, r).replace(/^Received(?: value)?: /, ''),
    };
  }
  const head = lines.findIndex((l) => /^- Expected/.test(l));
  if (head < 0 || !/^\+ Received/.test(lines[head + 1] ?? '')) return undefined;
  const diff = lines.slice(head + 2);
  return sidesOfDiff(diff.slice(diff.findIndex((l) => l.trim() !== '')), '+');
}

/** A labelled value runs until the next blank line or label. */
function block(lines: string[], from: number): string {
  const out = [lines[from]];
  for (let i = from + 1; i < lines.length && lines[i].trim() && !/^(Expected|Received)/.test(lines[i]); i++) out.push(lines[i]);
  return out.join('\n');
}
