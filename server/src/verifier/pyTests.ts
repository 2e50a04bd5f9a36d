// Edits to the tests AMTP wrote inside a Python file (those with a case id), on the syntax tree
// frameworks/pyTestFind.ts reads: remove, skip, replace.
import { checkPython } from '../frameworks/pySyntax';
import { parsePyTests, pyCommentsAbove as commentsAbove, type PyClassBody, type PyFoundTest } from '../frameworks/pyTestFind';
import { linesInsideStrings, statementsOf, withPythonTree, type PyNode } from '../frameworks/pyTree';
import { applyEdits, type Edit } from '../util/textEdits';
import { lineStartOf, oneLine, reindent, removeRanges } from './testEdits';
import type { TestBlock } from './testFile';

type PyTest = PyFoundTest & { caseId: string };

/** The tests that carry a case id, and the file's comments. */
function parse(content: string): { tests: PyTest[]; comments: Set<number> } {
  const p = parsePyTests(content);
  return { ...p, tests: p.tests.filter((t): t is PyTest => t.caseId !== undefined) };
}

export function findPyTests(content: string): TestBlock[] {
  return parse(content).tests.map(({ owner: _owner, ...t }) => t);
}

/** Whole lines from the comments above to the end of the test's last line. */
function span(content: string, t: TestBlock): { start: number; end: number } {
  const nl = content.indexOf('\n', t.end);
  return { start: t.fullStart, end: nl < 0 ? content.length : nl + 1 };
}

/** Removes the tests; a class left with no statement at all goes too (an empty class body does not parse). */
export function removePyTests(content: string, ids: Set<string>): string {
  const { tests, comments } = parse(content);
  const gone = tests.filter((t) => ids.has(t.caseId));
  const ranges = gone.map((t) => span(content, t));
  for (const cls of new Set(gone.map((t) => t.owner).filter((o): o is PyClassBody => !!o))) {
    if (cls.statements.some((at) => !gone.some((t) => t.owner === cls && t.start === at))) continue;
    const lineStart = lineStartOf(content, cls.start);
    const fullStart = commentsAbove(content, comments, lineStart, content.slice(lineStart, cls.start));
    ranges.push(span(content, { ...gone[0], fullStart, end: cls.end }));
  }
  return removeRanges(content, nestedOut(ranges));
}

/** Drops ranges inside another range (a method inside a class that goes as a whole). */
function nestedOut(ranges: { start: number; end: number }[]): { start: number; end: number }[] {
  return ranges.filter((r) => !ranges.some((o) => o !== r && o.start <= r.start && r.end <= o.end && (o.start < r.start || r.end < o.end)));
}

/** `@pytest.mark.skip(reason=…)` above each test, with the reason as a comment too; `import pytest` when missing. */
export function skipPyTests(content: string, reasons: Map<string, string>): string {
  const { tests } = parse(content);
  const edits: Edit[] = [];
  for (const t of tests) {
    const reason = reasons.get(t.caseId);
    if (reason === undefined) continue;
    const why = oneLine(reason);
    edits.push({
      start: t.start,
      end: t.start,
      text: `# AMTP quarantine: ${why}\n${t.indent}@pytest.mark.skip(reason=${JSON.stringify(`AMTP quarantine: ${why}`)})\n${t.indent}`,
    });
  }
  if (edits.length) withPythonTree(content, (root) => !importsPytest(root) && edits.push(importEdit(content, root)));
  return applyEdits(content, edits);
}

function importsPytest(root: PyNode): boolean {
  return statementsOf(root).some(
    (st) =>
      st.type === 'import_statement' &&
      // `import pytest`, not `import pytest as pt` nor `import pytest.mark`
      st.childrenForFieldName('name').some((n) => n?.type === 'dotted_name' && n.text === 'pytest'),
  );
}

/** `import pytest` after the module docstring and `from __future__` imports, which must come first. */
function importEdit(content: string, root: PyNode): Edit {
  const first = statementsOf(root).find((st, i) => {
    const docstring = i === 0 && st.type === 'expression_statement' && st.childCount === 1 && st.firstChild?.type === 'string';
    return !docstring && st.type !== 'future_import_statement';
  });
  const at = first ? lineStartOf(content, first.startIndex) : content.length;
  return { start: at, end: at, text: `${at > 0 && content[at - 1] !== '\n' ? '\n' : ''}import pytest\n` };
}

/** Replaces a case's first test with `replacement` (it must be valid Python), re-indented to its place. */
export function replacePyTest(path: string, content: string, caseId: string, replacement: string): string {
  const code = replacement.replace(/\s+$/, '');
  const dedented = reindent(code, '', linesInsideStrings(code));
  const reason = checkPython([{ key: 'replacement', snippets: [{ field: 'the replacement', source: dedented, mode: 'exec' }] }]).get(
    'replacement',
  );
  if (reason) throw new Error(reason);
  const blocks = parse(content)
    .tests.filter((b) => b.caseId === caseId)
    .sort((a, b) => a.start - b.start);
  if (!blocks.length) throw new Error(`no test for ${caseId} in ${path}`);
  const [first, ...rest] = blocks;
  const replaced = applyEdits(content, [
    { start: first.start, end: first.end, text: reindent(dedented, first.indent, linesInsideStrings(dedented)) },
  ]);
  const shift = replaced.length - content.length;
  return removeRanges(
    replaced,
    rest.map((t) => span(content, t)).map((r) => ({ start: r.start + shift, end: r.end + shift })),
  );
}
