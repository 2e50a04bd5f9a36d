// The crawler's notes travel with the map into every view the generator gets (agents/crawler/batches.ts
// mapBase), so what a model or a dropped patch operation adds there is bounded: one short line per
// note, a few dozen notes at most. A note says what happened; it never carries the view it was about.
import type { Operation } from 'fast-json-patch';

export const MAX_NOTES = 40;
export const MAX_NOTE_CHARS = 240;

const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** The notes, each on one line and at most MAX_NOTE_CHARS, at most MAX_NOTES (the last says how many more were left out). */
export function boundNotes(notes: Iterable<string>): string[] {
  const all = [...new Set([...notes].map((n) => cut(String(n).replace(/\s+/g, ' ').trim(), MAX_NOTE_CHARS)))];
  if (all.length <= MAX_NOTES) return all;
  return [...all.slice(0, MAX_NOTES - 1), `${all.length - MAX_NOTES + 1} more notes left out (at most ${MAX_NOTES} are kept)`];
}

/** One short line for a patch operation that was not applied: which, and the first line of why. */
export function droppedOperation(index: number, op: Operation, why: string): string {
  const where = `patch operation ${index} (${cut(String(op.op), 12)} ${cut(String(op.path), 80)})`;
  return cut(`${where} was dropped: ${why.split('\n')[0]}`, MAX_NOTE_CHARS);
}
