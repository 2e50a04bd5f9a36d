// node-tap: a failed t.equal / t.same carries a unified diff, "--- expected" / "+++ actual", a hunk
// header, then lines marked "-" (expected), "+" (actual) or " " (both).
import { sidesOfDiff, stripNoise, type ParsedAssertion } from '../failureText';

export function parseNodeTap(message: string): ParsedAssertion | undefined {
  const lines = stripNoise(message).split('\n');
  const at = lines.findIndex((l, i) => /^\s*--- expected\s*$/.test(l) && /^\s*\+\+\+ actual\s*$/.test(lines[i + 1] ?? ''));
  if (at < 0) return undefined;
  const body = lines.slice(at + 2).filter((l) => !/^\s*@@ .* @@\s*$/.test(l));
  const pad = Math.min(...body.filter((l) => l.trim()).map((l) => /^ */.exec(l)![0].length));
  // The diff's own column: "-x" becomes "- x", " x" stays shared, as sidesOfDiff reads them.
  const marked = body
    .map((l) => l.slice(Number.isFinite(pad) ? Math.max(0, pad - 1) : 0))
    .map((l) => (/^[+-]/.test(l) ? `${l[0]} ${l.slice(1)}` : ` ${l}`));
  return marked.length ? sidesOfDiff(marked, '+') : undefined;
}
