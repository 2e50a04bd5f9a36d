// Finds, removes, replaces and skips individual tests inside a written test file, by case id, on
// its syntax tree: the TypeScript parser for JavaScript/TypeScript (jsTests.ts), @lezer/python for
// Python (pyTests.ts). Edits land at the positions the tree gives, never where a pattern matched.
import { findJsTests, removeJsTests, replaceJsTest, skipJsTests } from './jsTests';
import { findPyTests, removePyTests, replacePyTest, skipPyTests } from './pyTests';

export interface TestBlock {
  caseId: string;
  /** text offsets of the whole test, the comments right above it included (`fullStart`) or not (`start`) */
  fullStart: number;
  start: number;
  end: number;
  /** the callee (`it`, `test`, `it.only`…); Python: the function name */
  callee: string;
  calleeStart: number;
  calleeEnd: number;
  indent: string;
}

export const isPython = (path: string) => path.endsWith('.py');

export function findTests(path: string, content: string): TestBlock[] {
  return isPython(path) ? findPyTests(content) : findJsTests(path, content).map(({ each: _each, ...t }) => t);
}

/** The source text of a case's test(s), for repair prompts and evidence checks. */
export function testSource(path: string, content: string, caseId: string): string | undefined {
  const blocks = findTests(path, content).filter((b) => b.caseId === caseId);
  return blocks.length ? blocks.map((b) => content.slice(b.start, b.end)).join('\n\n') : undefined;
}

/** Removes every test of these cases, with the comments right above them (and a Python class left empty). */
export function removeTests(path: string, content: string, caseIds: Iterable<string>): string {
  const ids = new Set(caseIds);
  return isPython(path) ? removePyTests(content, ids) : removeJsTests(path, content, ids);
}

/** Keeps only the tests of these cases (the file's imports and helpers stay). */
export function keepOnlyTests(path: string, content: string, caseIds: Iterable<string>): string {
  const keep = new Set(caseIds);
  return removeTests(
    path,
    content,
    findTests(path, content)
      .map((b) => b.caseId)
      .filter((id) => !keep.has(id)),
  );
}

/**
 * Replaces the (first) test of a case with `replacement`, re-indented to where the old one was; the
 * case's other tests go. Throws when the replacement does not parse or the case has no test.
 */
export function replaceTest(path: string, content: string, caseId: string, replacement: string): string {
  return isPython(path) ? replacePyTest(path, content, caseId, replacement) : replaceJsTest(path, content, caseId, replacement);
}

/** Marks the tests of these cases skipped, with the reason in a comment above each (and in pytest's skip reason). */
export function skipTests(path: string, content: string, reasons: Map<string, string>): string {
  return isPython(path) ? skipPyTests(content, reasons) : skipJsTests(path, content, reasons);
}

/** `test/ms.amtp.test.js` → `test/ms.amtp.quarantine.test.js`; `tests/test_x_amtp.py` → `tests/test_x_amtp_quarantine.py`. */
export function quarantinePath(path: string): string {
  if (isPython(path)) return path.replace(/\.py$/, '_quarantine.py');
  const m = /^(.*?)(\.(?:test|spec))(\.[^/]+)$/.exec(path);
  if (m) return `${m[1]}.quarantine${m[2]}${m[3]}`;
  return path.replace(/(\.[^./]+)$/, '.quarantine.test$1');
}
