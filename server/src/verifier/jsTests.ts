// Edits to the tests AMTP wrote inside a JavaScript/TypeScript file (those with a case id), on the
// syntax tree frameworks/jsTestFind.ts reads: remove, skip, replace.
import type * as TS from 'typescript';
import { findAllJsTests, parseJs as parse, type JsFoundTest } from '../frameworks/jsTestFind';
import { jsSyntaxError } from '../frameworks/jsSnippet';
import { typescript } from '../util/typescript';
import { applyEdits, lineStartOf, oneLine, reindent, removeRanges, type Edit } from './testEdits';
import type { TestBlock } from './testFile';
import { dropDeadImports } from './jsImports';

type JsTest = TestBlock & Pick<JsFoundTest, 'each'>;

/** The tests of the file that carry a case id. */
export function findJsTests(path: string, content: string): JsTest[] {
  return findAllJsTests(path, content).filter((t): t is JsFoundTest & { caseId: string } => t.caseId !== undefined);
}

/** The text a test occupies: its comments above, itself, a comment after it on its line, and whole lines when it has them. */
function span(text: string, t: TestBlock): { start: number; end: number } {
  const ts = typescript();
  let end = t.end;
  for (const c of ts.getTrailingCommentRanges(text, end) ?? []) if (!text.slice(end, c.pos).includes('\n')) end = c.end;
  const lineStart = lineStartOf(text, t.fullStart);
  const nl = text.indexOf('\n', end);
  const lineEnd = nl < 0 ? text.length : nl + 1;
  const alone = /^[ \t]*$/.test(text.slice(lineStart, t.fullStart)) && /^[ \t\r]*$/.test(text.slice(end, nl < 0 ? text.length : nl));
  return alone ? { start: lineStart, end: lineEnd } : { start: t.fullStart, end: t.end };
}

/** Removes these cases' tests, and the imports only they used (jsImports.ts). */
export function removeJsTests(path: string, content: string, ids: Set<string>): string {
  const removed = removeRanges(
    content,
    findJsTests(path, content)
      .filter((t) => ids.has(t.caseId))
      .map((t) => span(content, t)),
  );
  return removed === content ? content : dropDeadImports(path, content, removed);
}

export function skipJsTests(path: string, content: string, reasons: Map<string, string>): string {
  const edits: Edit[] = [];
  // node-tap has no `test.skip`: a skipped tap test takes `{ skip: reason }` after its name.
  const tapNames = tapTestNameEnds(path, content);
  for (const t of findJsTests(path, content)) {
    const reason = reasons.get(t.caseId);
    if (reason === undefined) continue;
    const base = t.callee.split('.')[0];
    edits.push({ start: t.start, end: t.start, text: `// AMTP quarantine: ${oneLine(reason)}\n${t.indent}` });
    const nameEnd = tapNames?.get(t.calleeStart);
    if (nameEnd !== undefined) edits.push({ start: nameEnd, end: nameEnd, text: `, { skip: ${JSON.stringify(oneLine(reason))} }` });
    else edits.push({ start: t.calleeStart, end: t.calleeEnd, text: t.each ? `${base}.skip.each` : `${base}.skip` });
  }
  return applyEdits(content, edits);
}

/** For a file that imports tap: where each test call's name argument ends, by the call's start; undefined otherwise. */
function tapTestNameEnds(path: string, content: string): Map<number, number> | undefined {
  const ts = typescript();
  const sf = parse(path, content);
  const fromTap = sf.statements.some(
    (st) =>
      (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier) && st.moduleSpecifier.text === 'tap') ||
      (ts.isVariableStatement(st) &&
        st.declarationList.declarations.some((d) => d.initializer && /^require\(\s*['"]tap['"]\s*\)$/.test(d.initializer.getText(sf)))),
  );
  if (!fromTap) return undefined;
  const ends = new Map<number, number>();
  const visit = (n: TS.Node): void => {
    if (ts.isCallExpression(n) && n.arguments.length >= 2) ends.set(n.expression.getStart(sf), n.arguments[0].end);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return ends;
}

/**
 * Replaces a case's first test with `replacement` (which must parse), re-indented to where the old
 * one was; the case's other tests are removed. Template literal lines keep their text.
 */
export function replaceJsTest(path: string, content: string, caseId: string, replacement: string): string {
  const ts = typescript();
  const code = replacement.replace(/\s+$/, '');
  const error = jsSyntaxError(path, code);
  if (error) throw new Error(`the replacement does not parse: ${error}`);
  const sf = parse(path, code);
  const blocks = findJsTests(path, content)
    .filter((b) => b.caseId === caseId)
    .sort((a, b) => a.start - b.start);
  if (!blocks.length) throw new Error(`no test for ${caseId} in ${path}`);
  const [first, ...rest] = blocks;
  const keep = new Set<number>();
  const visit = (n: TS.Node): void => {
    if (ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateExpression(n)) {
      for (let nl = code.indexOf('\n', n.getStart(sf)); nl >= 0 && nl < n.end; nl = code.indexOf('\n', nl + 1)) keep.add(nl + 1);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  const replaced = applyEdits(content, [{ start: first.start, end: first.end, text: reindent(code, first.indent, keep) }]);
  const shift = replaced.length - content.length;
  return removeRanges(
    replaced,
    rest.map((t) => span(content, t)).map((r) => ({ start: r.start + shift, end: r.end + shift })),
  );
}
