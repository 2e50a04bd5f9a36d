// What a failing assertion said, parsed from a runner's message: the expected and the actual value
// exactly as the runner printed them (multi-line values kept whole, whitespace kept).
export interface ParsedAssertion {
  expected: string;
  actual: string;
}

/** Drops ANSI colours and the stack trace (`    at …` lines) that runners append to a message. */
export function stripNoise(message: string): string {
  const lines = message.replace(/\u001b\[[0-9;]*m/g, '').split('\n');
  const stack = lines.findIndex((l) => /^\s+at .+(\(.+\)|:\d+:\d+)$/.test(l) || /^\s+at new Promise/.test(l));
  return (stack >= 0 ? lines.slice(0, stack) : lines).join('\n');
}

/**
 * A diff block (`+ actual - expected`, `- Expected + Received`) turned back into its two sides:
 * lines marked with the other side's sign are left out, the markers are removed, shared lines kept.
 */
export function sidesOfDiff(lines: string[], actualSign: '+' | '-'): ParsedAssertion {
  const expectedSign = actualSign === '+' ? '-' : '+';
  const side = (drop: string) => lines.filter((l) => !l.startsWith(drop)).map((l) => (/^[+-] /.test(l) ? '  ' + l.slice(2) : l));
  const dedent = (ls: string[]) => {
    const pad = Math.min(...ls.filter((l) => l.trim()).map((l) => /^ */.exec(l)![0].length));
    return ls
      .map((l) => l.slice(Number.isFinite(pad) ? pad : 0))
      .join('\n')
      .trim();
  };
  return { actual: dedent(side(expectedSign)), expected: dedent(side(actualSign)) };
}

/** Is a prefix of a printed value closed: no open quote, bracket or brace? (So a split there is between values.) */
export function balanced(s: string): boolean {
  let quote = '';
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === "'" || c === '"' || c === '`') quote = c;
    else if ('{[('.includes(c)) depth++;
    else if ('}])'.includes(c)) depth--;
  }
  return !quote && depth === 0;
}
