// Where a declaration's JSDoc is, and which line an offset is on, in one file's text (jsSymbols.ts).
import type { EsComment } from '../../util/jsParser';
import { lineOf } from '../../util/lineOf';

/** Where a declaration's JSDoc is looked for: the comments between `floor` and `at`. */
export interface DocSpot {
  at: number;
  floor: number;
}

/** The last `/** *\/` comment between the previous sibling and the node, like TypeScript's leading comments. */
export function leadingJsDoc(comments: EsComment[], spot: DocSpot): string | undefined {
  let lo = 0;
  let hi = comments.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (comments[mid].end <= spot.at) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo - 1; i >= 0 && comments[i].start >= spot.floor; i--) {
    if (comments[i].type === 'Block' && comments[i].value.startsWith('*')) return `/*${comments[i].value}*/`;
  }
  return undefined;
}

/** A function from an offset to its 1-based line in `text`. */
export function lineIndex(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => lineOf(starts, offset) + 1;
}
