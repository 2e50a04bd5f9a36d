// Shared setup factored out of AMTP's tests, as a maintainer would ask before merging (issue 27):
// when every test of a `describe` block starts by building the same value
// (`const createResult = md5.create();` in all 38 tests of node-forge's md5 file), the value is
// built once per test in a `beforeEach` of the block instead, and the tests use it. Each test still
// gets a fresh value, so nothing they do to it can reach another test. JavaScript files of the
// frameworks with `describe` and `beforeEach` (mocha, jest, vitest, node:test) only: a TypeScript
// file would need the value's type written out. The verifier runs the file again before it keeps
// the change (verifier/tidyPhase.ts).
import type * as TS from 'typescript';
import { typescript } from '../util/typescript';
import { CASE_ID, lineStartOf, parseJs } from './jsTestFind';
import { jsString } from './literals';

/** At least this many tests share the statement before it is worth a hook. */
export const MIN_TESTS = 3;

interface Edit {
  start: number;
  end: number;
  text: string;
}

/**
 * The file with each block's shared first statement in a `beforeEach`; undefined when nothing is
 * shared. With `ours`, only blocks whose every test is one of these cases change: a test an earlier
 * run wrote keeps its text, which that run recorded (pipeline/editedTests.ts would read a change as
 * the person's), and a person's own test is theirs.
 */
export function hoistSharedSetup(path: string, content: string, ours?: ReadonlySet<string>): string | undefined {
  if (!/\.[cm]?jsx?$/.test(path)) return undefined;
  const ts = typescript();
  const sf = parseJs(path, content);
  const edits: Edit[] = [];
  for (const s of sf.statements) {
    const body = describeBody(ts, s);
    if (body && (!ours || body.every((t) => ours.has(caseIdOf(sf, content, t) ?? '')))) edits.push(...hoistIn(ts, sf, content, body));
  }
  if (!edits.length) return undefined;
  const hook = hookImport(ts, sf);
  if (hook === null) return undefined;
  if (hook) edits.push(hook);
  let out = content;
  // From the end, and at one place a removal before an insertion, so no edit moves another.
  for (const e of edits.sort((a, b) => b.start - a.start || b.end - a.end)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/** The case id on a test's first line (`it('…', () => { // tc_…`). */
export function caseIdOf(sf: TS.SourceFile, content: string, test: TS.Statement): string | undefined {
  const start = test.getStart(sf);
  const eol = content.indexOf('\n', start);
  return new RegExp(CASE_ID.source).exec(content.slice(start, eol < 0 ? undefined : eol))?.[0];
}

/** The statements of `describe('…', () => { … })`, or undefined. */
function describeBody(ts: typeof TS, s: TS.Statement): TS.NodeArray<TS.Statement> | undefined {
  if (!ts.isExpressionStatement(s) || !ts.isCallExpression(s.expression)) return undefined;
  const c = s.expression;
  if (!ts.isIdentifier(c.expression) || c.expression.text !== 'describe' || c.arguments.length !== 2) return undefined;
  const fn = c.arguments[1];
  return (ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) && ts.isBlock(fn.body) ? fn.body.statements : undefined;
}

/** `it('…', () => { const name = init; … })` and `test(…)`: the test's first statement when it is such a declaration. */
function firstDeclaration(ts: typeof TS, s: TS.Statement): TS.VariableStatement | undefined {
  if (!ts.isExpressionStatement(s) || !ts.isCallExpression(s.expression)) return undefined;
  const c = s.expression;
  if (!ts.isIdentifier(c.expression) || !['it', 'test'].includes(c.expression.text) || c.arguments.length < 2) return undefined;
  const fn = c.arguments[1];
  if (!(ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) || !ts.isBlock(fn.body) || fn.body.statements.length < 2) return undefined;
  const first = fn.body.statements[0];
  if (!ts.isVariableStatement(first) || !(first.declarationList.flags & ts.NodeFlags.Const)) return undefined;
  const [d, ...more] = first.declarationList.declarations;
  return !more.length && ts.isIdentifier(d.name) && d.initializer && !d.type ? first : undefined;
}

/**
 * The edits that move a block's shared first statement into a `beforeEach`: the block's own when
 * every test starts with it; otherwise, when most do (at least MIN_TESTS), a nested block of those
 * tests, in place of the first of them, so the hook never runs for a test that did not ask for it.
 */
function hoistIn(ts: typeof TS, sf: TS.SourceFile, content: string, body: TS.NodeArray<TS.Statement>): Edit[] {
  const firsts = body.map((s) => firstDeclaration(ts, s));
  const key = (f: TS.VariableStatement | undefined) =>
    f && `${f.declarationList.declarations[0].name.getText(sf)}\n${f.declarationList.declarations[0].initializer!.getText(sf)}`;
  const counts = new Map<string, number>();
  for (const f of firsts) if (f) counts.set(key(f)!, (counts.get(key(f)!) ?? 0) + 1);
  const [top, n] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? [];
  if (!top || n! < MIN_TESTS || n! * 2 <= body.length) return [];
  const group = body.filter((_, i) => key(firsts[i]) === top);
  const decl = firsts[body.indexOf(group[0])]!.declarationList.declarations[0];
  const setup = { name: decl.name.getText(sf), init: decl.initializer!.getText(sf), waits: containsAwait(ts, decl.initializer!) };
  if (group.length === body.length) {
    const at = lineStartOf(content, body[0].getStart(sf));
    return [
      { start: at, end: at, text: hookText(setup, content.slice(at, body[0].getStart(sf))) },
      ...group.map((s) => firstLineRemoval(ts, sf, content, s)),
    ];
  }
  return nestedGroup(ts, sf, content, group, setup);
}

interface Setup {
  name: string;
  init: string;
  waits: boolean;
}

function hookText({ name, init, waits }: Setup, indent: string): string {
  return `${indent}let ${name};\n${indent}beforeEach(${waits ? 'async ' : ''}() => {\n${indent}  ${name} = ${init};\n${indent}});\n\n`;
}

/** The line of a test's first statement, removed. */
function firstLineRemoval(ts: typeof TS, sf: TS.SourceFile, content: string, test: TS.Statement): Edit {
  const first = firstDeclaration(ts, test)!;
  const start = lineStartOf(content, first.getStart(sf));
  const nl = content.indexOf('\n', first.getEnd());
  return { start, end: nl < 0 ? first.getEnd() : nl + 1, text: '' };
}

/** The group's tests moved into `describe('with name = init', …)` with the hook, where the first of them was. */
function nestedGroup(ts: typeof TS, sf: TS.SourceFile, content: string, group: TS.Statement[], setup: Setup): Edit[] {
  const spans = group.map((s) => {
    const start = lineStartOf(content, s.getStart(sf));
    const nl = content.indexOf('\n', s.getEnd());
    let end = nl < 0 ? s.getEnd() : nl + 1;
    while (content[end] === '\n') end++; // the blank line after it goes with it
    return { test: s, start, end };
  });
  // Re-indenting would change a multi-line template literal's text.
  if (spans.some((x) => content.slice(x.start, x.end).includes('`'))) return [];
  const indent = content.slice(spans[0].start, group[0].getStart(sf));
  const moved = spans.map((x) => {
    const own = firstLineRemoval(ts, sf, content, x.test);
    const text = content.slice(x.start, own.start) + content.slice(own.end, x.end).replace(/\n+$/, '\n');
    return text.replace(/^(?=.)/gm, '  ');
  });
  const title = `with ${setup.name} = ${setup.init}`.replace(/\s+/g, ' ');
  const wrapper =
    `${indent}describe(${jsString(title.length > 100 ? `with ${setup.name}` : title)}, () => {\n` +
    hookText(setup, indent + '  ') +
    moved.join('\n') +
    `${indent}});\n\n`;
  return [{ start: spans[0].start, end: spans[0].start, text: wrapper }, ...spans.map((x) => ({ start: x.start, end: x.end, text: '' }))];
}

export function containsAwait(ts: typeof TS, node: TS.Node): boolean {
  if (ts.isAwaitExpression(node)) return true;
  if (ts.isFunctionLike(node)) return false;
  return ts.forEachChild(node, (c) => containsAwait(ts, c) || undefined) ?? false;
}

/**
 * `beforeEach` beside `describe` where the file imports it (`const { describe, it } = require('node:test')`,
 * `import { describe, it } from 'vitest'`); nothing where describe is a global (mocha, jest) or
 * beforeEach is bound already; null when the file binds describe some other way.
 */
function hookImport(ts: typeof TS, sf: TS.SourceFile): Edit | undefined | null {
  let describe: TS.Node | undefined;
  let hookBound = false;
  let otherBinding = false;
  const visitName = (el: TS.BindingElement | TS.ImportSpecifier) => {
    const local = el.name.getText(sf);
    if (local === 'beforeEach') hookBound = true;
    if (local === 'describe') {
      if ((ts.isImportSpecifier(el) && el.propertyName) || (ts.isBindingElement(el) && el.propertyName)) otherBinding = true;
      describe = el;
    }
  };
  for (const s of sf.statements) {
    if (ts.isImportDeclaration(s) && s.importClause?.namedBindings && ts.isNamedImports(s.importClause.namedBindings))
      s.importClause.namedBindings.elements.forEach(visitName);
    if (ts.isVariableStatement(s))
      for (const d of s.declarationList.declarations) {
        if (ts.isObjectBindingPattern(d.name)) d.name.elements.forEach(visitName);
        else if (ts.isIdentifier(d.name) && ['describe', 'beforeEach'].includes(d.name.text)) otherBinding = true;
      }
  }
  if (otherBinding) return null;
  if (hookBound || !describe) return undefined;
  const end = (describe as TS.Node).getEnd();
  return { start: end, end, text: ', beforeEach' };
}
