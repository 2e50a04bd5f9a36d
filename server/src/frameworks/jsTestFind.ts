// Every test inside a JavaScript/TypeScript file, from its syntax tree: `it(...)`, `test(...)`,
// `specify(...)` and their forms (`it.only`, `test.concurrent`, `it.each(table)(...)`) at any depth
// of describe blocks, hand-written ones included. A test's case id is the `// tc_…` comment on its
// first line, right above it, or first in its body (where Prettier puts a comment after `{`); files
// written before ids left the names carry it in the name. Text that
// only looks like a test (inside a template literal, a string or a comment) is not one.
import type * as TS from 'typescript';
import { typescript } from '../util/typescript';

export const CASE_ID = /tc_[0-9a-f]{12}/;
const TEST_FNS = new Set(['it', 'test', 'specify']);
const SUITE_FNS = new Set(['describe', 'context', 'suite']);

export interface FoundTest {
  /** the case id, for a test AMTP wrote */
  caseId?: string;
  /** the test's own name (a string or a template's text); '' when it is computed */
  name: string;
  /** the names of the describe blocks around it, outermost first */
  suites: string[];
  /** where its name is in the text: the name argument (JS), the function name (Python) */
  nameStart: number;
  nameEnd: number;
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

export interface JsFoundTest extends FoundTest {
  /** `it.each(table)(…)`: skipping it writes `it.skip.each` */
  each: boolean;
}

/** The start of the line holding `pos`. */
export function lineStartOf(text: string, pos: number): number {
  return text.lastIndexOf('\n', pos - 1) + 1;
}

export function parseJs(path: string, content: string): TS.SourceFile {
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

// The verifier reads the same texts many times over (the tests of every written file after each run,
// where each kept test now is, each merge), and a parse of a 1000-test file costs about 100 ms: the
// texts read last are remembered, up to a total size that holds every test file of a large run (a
// count of 16 made a 42-file run parse 2,041 times), and every caller gets its own copies.
const recent = new Map<string, JsFoundTest[]>();
const RECENT_CHARS = 32 * 1024 * 1024;
let recentChars = 0;

export function findAllJsTests(path: string, content: string): JsFoundTest[] {
  const key = `${path}\0${content}`;
  let found = recent.get(key);
  if (found) recent.delete(key);
  else {
    found = readTests(path, content);
    recentChars += key.length;
  }
  recent.set(key, found);
  for (const old of recent.keys()) {
    if (recentChars <= RECENT_CHARS || recent.size === 1) break;
    recent.delete(old);
    recentChars -= old.length;
  }
  return found.map((t) => ({ ...t, suites: [...t.suites] }));
}

function readTests(path: string, content: string): JsFoundTest[] {
  const ts = typescript();
  const sf = parseJs(path, content);
  const out: JsFoundTest[] = [];
  const visit = (node: TS.Node) => {
    const found =
      ts.isExpressionStatement(node) && (ts.isBlock(node.parent) || ts.isSourceFile(node.parent)) ? asTest(ts, sf, node) : undefined;
    if (found) out.push(found);
    else ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** `it`/`test` with `.only`, `.each(t)`… taken off, and whether it was an `.each(table)(…)` form. */
function registrar(ts: typeof TS, call: TS.CallExpression): { callee: TS.Expression; base: string; each: boolean } | undefined {
  let callee: TS.Expression = call.expression;
  let each = false;
  if (ts.isCallExpression(callee) && ts.isPropertyAccessExpression(callee.expression) && callee.expression.name.text === 'each') {
    callee = callee.expression;
    each = true;
  }
  let base = callee;
  while (ts.isPropertyAccessExpression(base)) base = base.expression;
  return ts.isIdentifier(base) ? { callee, base: base.text, each } : undefined;
}

function asTest(ts: typeof TS, sf: TS.SourceFile, node: TS.ExpressionStatement): JsFoundTest | undefined {
  const call = node.expression;
  if (!ts.isCallExpression(call)) return undefined;
  const r = registrar(ts, call);
  if (!r || !TEST_FNS.has(r.base) || !call.arguments.length) return undefined;
  const name = nameText(ts, call.arguments[0]);
  const text = sf.text;
  const start = node.getStart(sf);
  const lineStart = lineStartOf(text, start);
  const fullStart = commentsAbove(ts, sf, node);
  const caseId = CASE_ID.exec(name ?? '')?.[0] ?? idInComments(ts, sf, fullStart, start) ?? idAtBodyStart(ts, sf, call);
  return {
    ...(caseId ? { caseId } : {}),
    name: name ?? '',
    suites: suitesOf(ts, node),
    nameStart: call.arguments[0].getStart(sf),
    nameEnd: call.arguments[0].getEnd(),
    fullStart,
    start,
    end: node.getEnd(),
    callee: r.callee.getText(sf),
    calleeStart: r.callee.getStart(sf),
    calleeEnd: r.callee.getEnd(),
    indent: /^[ \t]*$/.test(text.slice(lineStart, start)) ? text.slice(lineStart, start) : '',
    each: r.each,
  };
}

/** The describe names around a test, outermost first. */
function suitesOf(ts: typeof TS, node: TS.Node): string[] {
  const out: string[] = [];
  for (let n: TS.Node | undefined = node.parent; n; n = n.parent) {
    if (!ts.isCallExpression(n)) continue;
    const r = registrar(ts, n);
    if (r && SUITE_FNS.has(r.base) && n.arguments.length) out.unshift(nameText(ts, n.arguments[0]) ?? '');
  }
  return out;
}

/** A case id in a comment on the test's first line (`it('…', () => { // tc_…`), or in a comment right above it. */
function idInComments(ts: typeof TS, sf: TS.SourceFile, fullStart: number, start: number): string | undefined {
  const text = sf.text;
  const nl = text.indexOf('\n', start);
  const lineEnd = nl < 0 ? text.length : nl;
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, sf.languageVariant, text, undefined, start, lineEnd - start);
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.SingleLineCommentTrivia || kind === ts.SyntaxKind.MultiLineCommentTrivia) {
      const id = CASE_ID.exec(scanner.getTokenText())?.[0];
      if (id) return id;
    }
  }
  return CASE_ID.exec(text.slice(fullStart, start))?.[0];
}

/** A case id in a comment before the first statement of the test's callback (where Prettier moves a comment after `{`). */
function idAtBodyStart(ts: typeof TS, sf: TS.SourceFile, call: TS.CallExpression): string | undefined {
  const fn = [...call.arguments].reverse().find((a) => ts.isArrowFunction(a) || ts.isFunctionExpression(a)) as
    TS.ArrowFunction | TS.FunctionExpression | undefined;
  if (!fn || !ts.isBlock(fn.body)) return undefined;
  const open = fn.body.getStart(sf) + 1;
  const first = fn.body.statements[0]?.getStart(sf) ?? fn.body.getEnd() - 1;
  // Only trivia lies between the `{` and the first statement: whatever matches is in a comment.
  return CASE_ID.exec(sf.text.slice(open, first))?.[0];
}

/** The text a test name holds: a string, a template's head, or the strings of a `+`. */
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
