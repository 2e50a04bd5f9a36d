// Lines as the TypeScript compiler and Babel (so istanbul) count them: a line ends at \n, \r\n, \r,
// U+2028 or U+2029. Coverage locations must agree with nyc's, whose lines are Babel's.
import { lineOf } from './lineOf';

/** The offset where each line starts (the first is 0). */
export function lineStarts(text: string): number[] {
  const starts = [0];
  const re = /\r\n?|[\n\u2028\u2029]/g;
  for (let m = re.exec(text); m; m = re.exec(text)) starts.push(m.index + m[0].length);
  return starts;
}

/** The 1-based line and 0-based column of an offset. */
export function lineColumnAt(starts: number[], offset: number): { line: number; column: number } {
  const i = lineOf(starts, offset);
  return { line: i + 1, column: offset - starts[i] };
}
