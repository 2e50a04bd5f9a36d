// Characterization cases (the search's, server/src/search/case.ts, and Python's, python/case.ts) are
// planned TestCases whose evidence is `source` (what the code did when run), never documentation, so
// server/src/verifier/classify.ts can never call their failure a possible bug: a failing
// characterization is flaky or stale and is dropped. Their titles start with CHAR_PREFIX.
import type { TestCase } from '../contracts/types';
import { CHAR_PREFIX } from './render';

/** A characterization case, as its title says (render.ts CHAR_PREFIX): tree views and summaries tell it from a documented one. */
export function isCharacterizationCase(c: Pick<TestCase, 'title'>): boolean {
  return c.title.startsWith(CHAR_PREFIX);
}
