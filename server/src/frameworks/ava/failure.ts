// ava: a failed t.is / t.deepEqual prints "Difference (- actual, + expected):" and then the diff.
import { sidesOfDiff, stripNoise, type ParsedAssertion } from '../failureText';

export function parseAva(message: string): ParsedAssertion | undefined {
  const lines = stripNoise(message).split('\n');
  const at = lines.findIndex((l) => /Difference \(- actual, \+ expected\):/.test(l));
  if (at < 0) return undefined;
  const diff = lines.slice(at + 1).filter((l, i, all) => l.trim() || (i > 0 && i < all.length - 1));
  return diff.length ? sidesOfDiff(diff, '-') : undefined;
}
