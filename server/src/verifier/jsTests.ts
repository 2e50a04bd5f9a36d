// Edits to the tests AMTP wrote inside a JavaScript/TypeScript file (those with a case id), on the
// syntax tree frameworks/jsTestFind.ts reads: remove, skip, replace.
import type * as TS from 'typescript';
import { findAllJsTests, parseJs as parse, type JsFoundTest } from '../frameworks/jsTestFind';
import { jsSyntaxError } from '../frameworks/jsSnippet';
import { typescript } from '../util/typescript';
import { applyEdits, type Edit } from '../util/textEdits';
import { lineStartOf, oneLine, reindent, removeRanges } from './testEdits';
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
 * Replaces each case's first test with its replacement (which must parse), re-indented to where the
 * old one was; the case's other tests are removed. Template literal lines keep their text. One parse
 * of the file for the whole batch (two when a case has more than one test), not one per test.
 */
export function replaceJsTests(path: string, content: string, replacements: ReadonlyMap<string, string>): string {
  const codes = new Map<string, { code: string; keep: Set<number> }>();
  for (const [caseId, replacement] of replacements) codes.set(caseId, parsedReplacement(path, replacement));
  const blocksOf = (text: string) => {
    const firsts = new Map<string, TestBlock>();
    const rest: TestBlock[] = [];
    for (const b of findJsTests(path, text).sort((x, y) => x.start - y.start)) {
      if (!codes.has(b.caseId)) continue;
      if (firsts.has(b.caseId)) rest.push(b);
      else firsts.set(b.caseId, b);
    }
    return { firsts, rest };
  };
  const found = blocksOf(content);
  for (const id of codes.keys()) if (!found.firsts.has(id)) throw new Error(`no test for ${id} in ${path}`);
  let text = content;
  let firsts = found.firsts;
  if (found.rest.length) {
    text = removeRanges(
      content,
      found.rest.map((t) => span(content, t)),
    );
    firsts = blocksOf(text).firsts;
  }
  return applyEdits(
    text,
    [...firsts].map(([id, b]) => {
      const { code, keep } = codes.get(id)!;
      return { start: b.start, end: b.end, text: reindent(code, b.indent, keep) };
    }),
  );
}

/** A replacement without its trailing blank, checked to parse, and the starts of the lines inside its template literals (kept as they are). */
function parsedReplacement(path: string, replacement: string): { code: string; keep: Set<number> } {
  const ts = typescript();
  const code = replacement.replace(/\s+$/, '');
  const error = jsSyntaxError(path, code);
  if (error) throw new Error(`the replacement does not parse: ${error}`);
  const sf = parse(path, code);
  const keep = new Set<number>();
  const visit = (n: TS.Node): void => {
    if (ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateExpression(n)) {
      for (let nl = code.indexOf('\n', n.getStart(sf)); nl >= 0 && nl < n.end; nl = code.indexOf('\n', nl + 1)) keep.add(nl + 1);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return { code, keep };
}
