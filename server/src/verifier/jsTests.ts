// Tests inside a JavaScript/TypeScript file, from its syntax tree: `it(...)`, `test(...)`,
// `specify(...)` and their forms (`it.only`, `test.concurrent`, `it.each(table)(...)`) at any
// depth of describe blocks, whose name (a string, a template or a `+` of strings) holds a case id.
// Text that only looks like a test (inside a template literal, a string or a comment) is not one.
import type * as TS from 'typescript';
import { jsSyntaxError } from '../frameworks/jsSnippet';
import { typescript } from '../util/typescript';
import { applyEdits, lineStartOf, oneLine, reindent, removeRanges, type Edit } from './testEdits';
import type { TestBlock } from './testFile';
import { dropDeadImports } from './jsImports';

const ID = /tc_[0-9a-f]{12}/;
const TEST_FNS = new Set(['it', 'test', 'specify']);

interface JsTest extends TestBlock {
  /** `it.each(table)(…)`: skipping it writes `it.skip.each` */
  each: boolean;
}

function parse(path: string, content: string): TS.SourceFile {
  const ts = typescript();
  const kind = /\.[cm]?tsx?$/.test(path)
    ? path.endsWith('x')
      ? ts.ScriptKind.TSX
      : ts.ScriptKind.TS
    : path.endsWith('x')
      ? ts.ScriptKind.JSX
      : ts.ScriptKind.JS;
  return ts.createSourceFile(path, content, ts.ScriptTarget.Latest, true, kind);
}

export function findJsTests(path: string, content: string): JsTest[] {
  const ts = typescript();
  const sf = parse(path, content);
  const out: JsTest[] = [];
  const visit = (node: TS.Node) => {
    const found =
      ts.isExpressionStatement(node) && (ts.isBlock(node.parent) || ts.isSourceFile(node.parent)) ? asTest(ts, sf, node) : undefined;
    if (found) out.push(found);
    else ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

function asTest(ts: typeof TS, sf: TS.SourceFile, node: TS.ExpressionStatement): JsTest | undefined {
  const call = node.expression;
  if (!ts.isCallExpression(call)) return undefined;
  let callee: TS.Expression = call.expression;
  let each = false;
  if (ts.isCallExpression(callee) && ts.isPropertyAccessExpression(callee.expression) && callee.expression.name.text === 'each') {
    callee = callee.expression;
    each = true;
  }
  let base = callee;
  while (ts.isPropertyAccessExpression(base)) base = base.expression;
  if (!ts.isIdentifier(base) || !TEST_FNS.has(base.text)) return undefined;
  const id = ID.exec(nameText(ts, call.arguments[0]) ?? '')?.[0];
  if (!id) return undefined;
  const text = sf.text;
  const start = node.getStart(sf);
  const lineStart = lineStartOf(text, start);
  return {
    caseId: id,
    fullStart: commentsAbove(ts, sf, node),
    start,
    end: node.getEnd(),
    callee: callee.getText(sf),
    calleeStart: callee.getStart(sf),
    calleeEnd: callee.getEnd(),
    indent: /^[ \t]*$/.test(text.slice(lineStart, start)) ? text.slice(lineStart, start) : '',
    each,
  };
}

/** The text a test name starts with: a string, a template's head, or the strings of a `+`. */
function nameText(ts: typeof TS, e: TS.Expression | undefined): string | undefined {
  if (!e) return undefined;
  if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return e.text;
  if (ts.isTemplateExpression(e)) return e.head.text;
  if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken)
    return `${nameText(ts, e.left) ?? ''}${nameText(ts, e.right) ?? ''}`;
  if (ts.isParenthesizedExpression(e)) return nameText(ts, e.expression);
  return undefined;
}

/** Where the comments right above a statement begin: each on its own line, no blank line between. */
function commentsAbove(ts: typeof TS, sf: TS.SourceFile, node: TS.Node): number {
  const text = sf.text;
  let start = node.getStart(sf);
  const ranges = ts.getLeadingCommentRanges(text, node.getFullStart()) ?? [];
  for (let i = ranges.length - 1; i >= 0; i--) {
    const r = ranges[i];
    const ownLine = /^[ \t]*$/.test(text.slice(lineStartOf(text, r.pos), r.pos));
    if (!ownLine || (text.slice(r.end, start).match(/\n/g) ?? []).length > 1) break;
    start = r.pos;
  }
  return start;
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
