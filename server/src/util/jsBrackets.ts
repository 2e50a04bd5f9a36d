// The brackets a stretch of JavaScript leaves open, for reading on past a syntax error
// (util/jsRecover.ts): strings, template literals and comments are skipped; a regular expression is
// not told from a division, so a bracket inside one counts.

const CLOSER: Record<string, string> = { '(': ')', '[': ']', '{': '}' };

/**
 * Scans `text[from, to)`, pushing each opening bracket onto `open` and popping it at a closing one
 * (a closing bracket with nothing open is ignored). Returns where the scan stopped: past `to` when
 * a string or comment runs on beyond it.
 */
export function scanBrackets(text: string, from: number, to: number, open: string[]): number {
  let i = from;
  for (; i < to; i++) {
    const c = text[i];
    if (c === '/' && text[i + 1] === '/') i = lineEnd(text, i) - 1;
    else if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      i = close < 0 ? text.length : close + 1;
    } else if (c === "'" || c === '"') i = closingQuote(text, i, lineEnd(text, i));
    else if (c === '`') i = closingQuote(text, i, text.length);
    else if (c in CLOSER) open.push(c);
    else if (c === ')' || c === ']' || c === '}') open.pop();
  }
  return i;
}

/** The closing brackets, innermost first, that close what `text[from, to)` leaves open. */
export function closers(text: string, from: number, to: number): string {
  const open: string[] = [];
  scanBrackets(text, from, to, open);
  return open
    .reverse()
    .map((c) => CLOSER[c])
    .join('');
}

const LINE_END = /[\n\r\u2028\u2029]/g;

function lineEnd(text: string, i: number): number {
  LINE_END.lastIndex = i;
  return LINE_END.exec(text)?.index ?? text.length;
}

/** The offset of the quote that closes the string opened at `open`, or `limit - 1` when none does before `limit`. */
function closingQuote(text: string, open: number, limit: number): number {
  for (let i = open + 1; i < limit; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === text[open]) return i;
  }
  return limit - 1;
}
