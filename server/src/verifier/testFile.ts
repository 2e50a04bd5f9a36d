// Finds, removes, replaces and skips individual tests inside a written test file, by case id, on
// its syntax tree: the TypeScript parser for JavaScript/TypeScript (jsTests.ts), tree-sitter for
// Python (pyTests.ts). Edits land at the positions the tree gives, never where a pattern matched.
import { caseIdComment } from '../frameworks/caseMap';
import { findAllJsTests, type FoundTest } from '../frameworks/jsTestFind';
import { parsePyTests } from '../frameworks/pyTestFind';
import { findJsTests, removeJsTests, replaceJsTests, skipJsTests } from './jsTests';
import { findPyTests, removePyTests, replacePyTest, skipPyTests } from './pyTests';

/** An AMTP test's place in its file: the finder's positions (frameworks/jsTestFind.ts FoundTest) with its case id. */
export type TestBlock = Pick<FoundTest, 'fullStart' | 'start' | 'end' | 'callee' | 'calleeStart' | 'calleeEnd' | 'indent'> & {
  caseId: string;
};

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
  return replaceTests(path, content, new Map([[caseId, replacement]]));
}

/** replaceTest for many cases at once (case id → replacement): a JavaScript file is read once for all of them. */
export function replaceTests(path: string, content: string, replacements: ReadonlyMap<string, string>): string {
  if (!isPython(path)) return replaceJsTests(path, content, replacements);
  let out = content;
  for (const [caseId, replacement] of replacements) out = replacePyTest(path, out, caseId, replacement);
  return out;
}

/** Marks the tests of these cases skipped, with the reason in a comment above each (and in pytest's skip reason). */
export function skipTests(path: string, content: string, reasons: Map<string, string>): string {
  return isPython(path) ? skipPyTests(content, reasons) : skipJsTests(path, content, reasons);
}

/** The note a quarantined test the person confirmed as a real bug carries in its file (review, and every later run's quarantine file). */
export function realBugNote(reason: string | undefined): string {
  const flat = reason?.replace(/\s+/g, ' ').trim();
  return `real bug (confirmed by you)${flat ? `: ${flat.length > 200 ? flat.slice(0, 199) + '…' : flat}` : ''}`;
}

/** `test/ms.amtp.test.js` → `test/ms.amtp.quarantine.test.js`; `tests/test_x_amtp.py` → `tests/test_x_amtp_quarantine.py`. */
export function quarantinePath(path: string): string {
  if (isPython(path)) return path.replace(/\.py$/, '_quarantine.py');
  const m = /^(.*?)(\.(?:test|spec))(\.[^/]+)$/.exec(path);
  if (m) return `${m[1]}.quarantine${m[2]}${m[3]}`;
  return path.replace(/(\.[^./]+)$/, '.quarantine.test$1');
}

/**
 * A test as a model wrote it (a repair, a coverage round) made the way AMTP writes its own: the case
 * id out of its name (`'tc_…: title'`, `def test_tc_…_title`) and in a comment at the end of its
 * first line (frameworks/caseMap.ts reads it there). Text without a test comes back as it is.
 */
export function withIdComment(path: string, text: string, caseId: string): string {
  const first = (t: string) => (isPython(path) ? parsePyTests(t).tests : findAllJsTests(path, t))[0];
  const t = first(text);
  if (!t) return text;
  const name = text.slice(t.nameStart, t.nameEnd);
  const bare = isPython(path)
    ? name
        .replace(new RegExp(`_?${caseId}_?`), '_')
        .replace(/_+$/, '')
        .replace(/^test_?$/, 'test_case')
    : name.replace(new RegExp(`${caseId}\\s*[:\\-–]?\\s*`), '');
  let out = text.slice(0, t.nameStart) + bare + text.slice(t.nameEnd);
  const nl = out.indexOf('\n', t.nameStart);
  const lineEnd = nl < 0 ? out.length : nl;
  if (!out.slice(t.fullStart, lineEnd).includes(caseId))
    out = `${out.slice(0, lineEnd).replace(/[ \t]+$/, '')}${isPython(path) ? '  ' : ' '}${caseIdComment(path, caseId)}${out.slice(lineEnd)}`;
  return out;
}

/** The file's test names (titles; Python: function names), AMTP's and the person's. */
export function testNames(path: string, content: string): Set<string> {
  return new Set((isPython(path) ? parsePyTests(content).tests : findAllJsTests(path, content)).map((t) => t.name));
}

/** A test's text with its own name replaced (a JS title keeps its quote; a Python function name is an identifier). */
function renamedTest(path: string, text: string, name: string): string {
  const t = (isPython(path) ? parsePyTests(text).tests : findAllJsTests(path, text))[0];
  if (!t) return text;
  const quote = isPython(path) ? '' : /^['"`]/.exec(text.slice(t.nameStart, t.nameEnd))?.[0];
  if (quote === undefined) return text;
  const literal = quote ? `${quote}${name.replace(/\\/g, '\\\\').replaceAll(quote, `\\${quote}`)}${quote}` : name;
  return text.slice(0, t.nameStart) + literal + text.slice(t.nameEnd);
}

/** A new test for a file that already holds `existing`: its case id in a comment, and a name no test there has (` (2)`, `_2`). */
export function newTestFor(path: string, existing: string, test: string, caseId: string): string {
  return freelyNamed(path, withIdComment(path, test, caseId), testNames(path, existing));
}

/** One test's text under a name `taken` does not hold: its own, else with ` (2)`, `_2`… */
export function freelyNamed(path: string, text: string, taken: ReadonlySet<string>): string {
  const t = (isPython(path) ? parsePyTests(text).tests : findAllJsTests(path, text))[0];
  if (!t || !taken.has(t.name)) return text;
  let n = 2;
  const next = () => (isPython(path) ? `${t.name}_${n}` : `${t.name} (${n})`);
  while (taken.has(next())) n++;
  return renamedTest(path, text, next());
}
