// Text edits at positions a syntax tree gave: the test files the verifier edits (verifier/testEdits.ts)
// and the shared setup the tidy phase moves (frameworks/sharedSetup.ts, frameworks/contextSetup.ts,
// frameworks/pytest/sharedSetup.ts).

export interface Edit {
  start: number;
  end: number;
  text: string;
}

/** Applies non-overlapping edits (positions in the original text). */
export function applyEdits(text: string, edits: Edit[]): string {
  let out = text;
  let last = Infinity;
  for (const e of [...edits].sort((a, b) => b.start - a.start || b.end - a.end)) {
    if (e.end > last) throw new Error(`overlapping edits at ${e.start}..${e.end}`);
    out = out.slice(0, e.start) + e.text + out.slice(e.end);
    last = e.start;
  }
  return out;
}
