// Lines as the TypeScript compiler and Babel (so istanbul) count them: a line ends at \n, \r\n, \r,
// U+2028 or U+2029. Coverage locations must agree with nyc's, whose lines are Babel's.

/** The offset where each line starts (the first is 0). */
export function lineStarts(text: string): number[] {
  const starts = [0];
  const re = /\r\n?|[\n\u2028\u2029]/g;
  for (let m = re.exec(text); m; m = re.exec(text)) starts.push(m.index + m[0].length);
  return starts;
}

/** The 1-based line and 0-based column of an offset. */
export function lineColumnAt(starts: readonly number[], offset: number): { line: number; column: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - starts[lo] };
}
