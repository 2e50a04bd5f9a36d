// The write stage's merge (verifier/testMerge.ts) with the person's accepted tests guarded: a later
// run never changes a test the person accepted without an approved overwrite (issue 27). The merge is
// made twice when it would change one: as the run wrote it, and with every accepted test left as it is.
// Either way it says which accepted tests the write leaves exactly as they were (`same`, `keptSame`):
// the verifier runs those but never changes them (verifier/acceptedTests.ts).
import type { MergeTests } from '../pipeline/writePlan';
import { findTests } from './testFile';
import { mergeTestFile } from './testMerge';

export const mergeGuarded: MergeTests = (path, existing, incoming, opts = {}) => {
  const { accepted, ...rest } = opts;
  const content = mergeTestFile(path, existing, incoming, rest);
  if (content === undefined) return undefined;
  if (!accepted?.size) return { content, held: [], same: [] };
  const before = testTexts(path, existing);
  const unchanged = (text: string) => {
    const after = testTexts(path, text);
    return [...accepted].filter((id) => before.has(id) && before.get(id) === after.get(id)).sort();
  };
  const same = unchanged(content);
  const held = [...accepted].filter((id) => before.has(id) && !same.includes(id)).sort();
  if (!held.length) return { content, held, same };
  // Nothing mergeable with those tests kept: the file stays as it is.
  const kept = mergeTestFile(path, existing, incoming, { ...rest, keep: new Set([...(rest.keep ?? []), ...held]) }) ?? existing;
  return { content, held, same, kept, keptSame: unchanged(kept) };
};

/** Each case's test text (all its tests, joined), indentation of the first line included. */
function testTexts(path: string, content: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const b of findTests(path, content)) {
    const text = content.slice(content.lastIndexOf('\n', b.start - 1) + 1, b.end);
    out.set(b.caseId, out.has(b.caseId) ? `${out.get(b.caseId)}\n${text}` : text);
  }
  return out;
}
