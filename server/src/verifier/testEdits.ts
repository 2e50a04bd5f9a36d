// Text edits at positions a syntax tree gave (jsTests.ts, pyTests.ts), with the layout rules a
// person would follow: a removed test takes its own lines and one run of blank lines with it.
import { applyEdits } from '../util/textEdits';

/**
 * Removes ranges of text. A range made of whole lines also takes the blank lines after it, or,
 * when nothing follows it in its block (the next line is less indented, or the file ends), the
 * blank lines before it: tests stay one blank run apart and a block never ends in blank lines.
 * Ranges separated by blank lines only are removed as one.
 */
export function removeRanges(text: string, ranges: { start: number; end: number }[]): string {
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  const merged: { start: number; end: number }[] = [];
  for (const r of sorted) {
    const prev = merged[merged.length - 1];
    if (
      prev &&
      (r.start <= prev.end || (wholeLines(text, prev) && wholeLines(text, r) && /^[ \t\r\n]*$/.test(text.slice(prev.end, r.start))))
    )
      prev.end = Math.max(prev.end, r.end);
    else merged.push({ ...r });
  }
  return applyEdits(
    text,
    merged.map((r) => ({ ...(wholeLines(text, r) ? withBlankLines(text, r) : r), text: '' })),
  );
}

function wholeLines(text: string, r: { start: number; end: number }): boolean {
  return (r.start === 0 || text[r.start - 1] === '\n') && (r.end === text.length || text[r.end - 1] === '\n');
}

function withBlankLines(text: string, r: { start: number; end: number }): { start: number; end: number } {
  let after = r.end;
  while (after < text.length && isBlank(lineAt(text, after))) after = nextLine(text, after);
  const indent = (pos: number) => /^[ \t]*/.exec(lineAt(text, pos))![0].length;
  const firstLine = r.start + (/^(?:[ \t]*\r?\n)*/.exec(text.slice(r.start, r.end))?.[0].length ?? 0);
  if (after < text.length && indent(after) >= indent(firstLine)) return { start: r.start, end: after };
  let before = r.start;
  while (before > 0 && isBlank(lineAt(text, previousLine(text, before)))) before = previousLine(text, before);
  return { start: before, end: r.end };
}

/** The line that starts at `pos`, without its line break. */
function lineAt(text: string, pos: number): string {
  const nl = text.indexOf('\n', pos);
  return text.slice(pos, nl < 0 ? text.length : nl);
}

function nextLine(text: string, pos: number): number {
  const nl = text.indexOf('\n', pos);
  return nl < 0 ? text.length : nl + 1;
}

function previousLine(text: string, pos: number): number {
  return text.lastIndexOf('\n', pos - 2) + 1;
}

function isBlank(line: string): boolean {
  return /^[ \t\r]*$/.test(line);
}

/** The start of the line holding `pos`. */
export { lineStartOf } from '../frameworks/jsTestFind';

/**
 * Re-indents a block of code to `indent` (its first line goes where the old code started, so it
 * gets none). Lines listed in `keep` (they begin inside a string or template) keep their text.
 */
export function reindent(code: string, indent: string, keep: Set<number>): string {
  const lines: { at: number; line: string }[] = [];
  let at = 0;
  for (const line of code.split('\n')) {
    lines.push({ at, line });
    at += line.length + 1;
  }
  const counted = lines.filter((l) => l.line.trim() && !keep.has(l.at));
  const min = Math.min(...counted.map((l) => /^[ \t]*/.exec(l.line)![0].length), Infinity);
  const strip = Number.isFinite(min) ? min : 0;
  return lines
    .map((l, i) => {
      if (i === 0) return l.line.trimStart();
      if (keep.has(l.at) || !l.line.trim()) return l.line.trim() ? l.line : '';
      return indent + l.line.slice(Math.min(strip, /^[ \t]*/.exec(l.line)![0].length));
    })
    .join('\n');
}

/** One line for a comment: no line breaks or control characters (a NUL in a Python file stops it loading). */
export function oneLine(s: string): string {
  return s
    .replace(/[\s\x00-\x1f\x7f]+/g, ' ')
    .trim()
    .slice(0, 400);
}
