// Which line an offset is on, given where each line starts (the crawler's symbol lines, coverage
// offsets mapped to lines).

/** The 0-based line holding an offset, by binary search of the line starts. */
export function lineOf(starts: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
