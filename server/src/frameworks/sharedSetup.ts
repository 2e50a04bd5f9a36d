// Shared setup factored out of AMTP's tests, as a maintainer would ask before merging (issue 27):
// when every test of a `describe` block starts by building the same value
// (`const createResult = md5.create();` in all 38 tests of node-forge's md5 file), the value is
// built once per test in a `beforeEach` of the block instead, and the tests use it. Each test still
// gets a fresh value, so nothing they do to it can reach another test. JavaScript and TypeScript
// files of the frameworks with `describe` and `beforeEach` (mocha, jest, vitest, node:test); in
// TypeScript the value's type comes from a factory (./typedSetup.ts). A value built from what only
// the test's own function has (`this`, its parameters) stays in the tests. The verifier runs the
// file again before it keeps the change (verifier/tidyPhase.ts).
import type * as TS from 'typescript';
import { applyEdits, type Edit } from '../util/textEdits';
import { typescript } from '../util/typescript';
import { CASE_ID, lineStartOf, parseJs } from './jsTestFind';
import { jsString } from './literals';
import { factoryKeepsType, factoryName, typedHookText } from './typedSetup';

/** At least this many tests share the statement before it is worth a hook. */
export const MIN_TESTS = 3;

/**
 * The file with each block's shared first statement in a `beforeEach`; undefined when nothing is
 * shared. With `ours`, only blocks whose every test is one of these cases change: a test an earlier
 * run wrote keeps its text, which that run recorded (pipeline/editedTests.ts would read a change as
 * the person's), and a person's own test is theirs.
 */
export function hoistSharedSetup(path: string, content: string, ours?: ReadonlySet<string>): string | undefined {
  if (!/\.[cm]?[jt]sx?$/.test(path) || /\.d\.[cm]?ts$/.test(path)) return undefined;
  const ts = typescript();
  const sf = parseJs(path, content);
  const typed = /\.[cm]?tsx?$/.test(path);
  const edits: Edit[] = [];
  for (const s of sf.statements) {
    const body = describeBody(ts, s);
    if (body && (!ours || body.every((t) => ours.has(caseIdOf(sf, content, t) ?? ''))))
      edits.push(...hoistIn(ts, sf, content, body, typed));
  }
  if (!edits.length) return undefined;
  const hook = hookImport(ts, sf);
  if (hook === null) return undefined;
  if (hook) edits.push(hook);
  return applyEdits(content, edits);
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

/**
 * `it('…', () => { const name = init; … })` and `test(…)`: the test's first statement when it is such
 * a declaration and the hook can build the value (in TypeScript, with its type).
 */
function firstDeclaration(ts: typeof TS, s: TS.Statement, typed: boolean): TS.VariableStatement | undefined {
  if (!ts.isExpressionStatement(s) || !ts.isCallExpression(s.expression)) return undefined;
  const c = s.expression;
  if (!ts.isIdentifier(c.expression) || !['it', 'test'].includes(c.expression.text) || c.arguments.length < 2) return undefined;
  const fn = c.arguments[1];
  if (!(ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) || !ts.isBlock(fn.body) || fn.body.statements.length < 2) return undefined;
  const first = fn.body.statements[0];
  if (!ts.isVariableStatement(first) || !(first.declarationList.flags & ts.NodeFlags.Const)) return undefined;
  const [d, ...more] = first.declarationList.declarations;
  if (more.length || !ts.isIdentifier(d.name) || !d.initializer || d.type || readsTestScope(ts, fn, d.initializer)) return undefined;
  return !typed || factoryKeepsType(ts, d.initializer, containsAwait(ts, d.initializer)) ? first : undefined;
}

/**
 * Whether `init` reads what only the test's own function has, which a hook does not: `this` and
 * `arguments` (mocha's test context in `function () {}`), its parameters (node:test's `t`, mocha's
 * `done`), its name, the functions its body declares. A same-named property (`x.t`) counts too.
 */
function readsTestScope(ts: typeof TS, fn: TS.ArrowFunction | TS.FunctionExpression, init: TS.Expression): boolean {
  const own = new Set<string>();
  const bind = (n: TS.BindingName): void => {
    if (ts.isIdentifier(n)) own.add(n.text);
    else for (const el of n.elements) if (!ts.isOmittedExpression(el)) bind(el.name);
  };
  for (const p of fn.parameters) bind(p.name);
  if (fn.name) own.add(fn.name.text);
  for (const st of (fn.body as TS.Block).statements) if (ts.isFunctionDeclaration(st) && st.name) own.add(st.name.text);
  const reads = (n: TS.Node, ownThis: boolean): boolean => {
    if (ownThis && (n.kind === ts.SyntaxKind.ThisKeyword || n.kind === ts.SyntaxKind.SuperKeyword || ts.isMetaProperty(n))) return true;
    if (ts.isIdentifier(n)) return own.has(n.text) || (ownThis && n.text === 'arguments');
    // A nested `function` has its own `this` and `arguments`; an arrow reads the test's.
    const inner = ownThis && !(ts.isFunctionLike(n) && !ts.isArrowFunction(n)) && !ts.isClassLike(n);
    return ts.forEachChild(n, (c) => reads(c, inner) || undefined) ?? false;
  };
  return reads(init, true);
}

/**
 * The edits that move a block's shared first statement into a `beforeEach`: the block's own when
 * every test starts with it; otherwise, when most do (at least MIN_TESTS), a nested block of those
 * tests, in place of the first of them, so the hook never runs for a test that did not ask for it.
 */
function hoistIn(ts: typeof TS, sf: TS.SourceFile, content: string, body: TS.NodeArray<TS.Statement>, typed: boolean): Edit[] {
  const firsts = body.map((s) => firstDeclaration(ts, s, typed));
  const key = (f: TS.VariableStatement | undefined) =>
    f && `${f.declarationList.declarations[0].name.getText(sf)}\n${f.declarationList.declarations[0].initializer!.getText(sf)}`;
  const counts = new Map<string, number>();
  for (const f of firsts) if (f) counts.set(key(f)!, (counts.get(key(f)!) ?? 0) + 1);
  const [top, n] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? [];
  if (!top || n! < MIN_TESTS || n! * 2 <= body.length) return [];
  const group = body.filter((_, i) => key(firsts[i]) === top);
  const declarations = group.map((s) => firsts[body.indexOf(s)]!);
  const decl = declarations[0].declarationList.declarations[0];
  const name = decl.name.getText(sf);
  const setup: Setup = {
    name,
    init: decl.initializer!.getText(sf),
    waits: containsAwait(ts, decl.initializer!),
    ...(typed ? { factory: factoryName(ts, sf, name) } : {}),
  };
  if (group.length === body.length) {
    const at = lineStartOf(content, body[0].getStart(sf));
    return [
      { start: at, end: at, text: hookText(setup, content.slice(at, body[0].getStart(sf))) },
      ...declarations.map((d) => firstLineRemoval(sf, content, d)),
    ];
  }
  return nestedGroup(sf, content, group, declarations, setup, group[group.length - 1] === body[body.length - 1]);
}

interface Setup {
  name: string;
  init: string;
  waits: boolean;
  /** TypeScript: the function whose return type types the `let` (./typedSetup.ts) */
  factory?: string;
}

function hookText({ name, init, waits, factory }: Setup, indent: string): string {
  if (factory) return typedHookText(name, init, waits, factory, indent);
  return `${indent}let ${name};\n${indent}beforeEach(${waits ? 'async ' : ''}() => {\n${indent}  ${name} = ${init};\n${indent}});\n\n`;
}

/** The line of a test's first statement, removed. */
function firstLineRemoval(sf: TS.SourceFile, content: string, first: TS.VariableStatement): Edit {
  const start = lineStartOf(content, first.getStart(sf));
  const nl = content.indexOf('\n', first.getEnd());
  return { start, end: nl < 0 ? first.getEnd() : nl + 1, text: '' };
}

/** The group's tests moved into `describe('with name = init', …)` with the hook, where the first of them was. */
function nestedGroup(
  sf: TS.SourceFile,
  content: string,
  group: TS.Statement[],
  declarations: TS.VariableStatement[],
  setup: Setup,
  endsBlock: boolean,
): Edit[] {
  const spans = group.map((s, i) => {
    const start = lineStartOf(content, s.getStart(sf));
    const nl = content.indexOf('\n', s.getEnd());
    let end = nl < 0 ? s.getEnd() : nl + 1;
    while (content[end] === '\n') end++; // the blank line after it goes with it
    return { first: declarations[i], start, end };
  });
  // Re-indenting would change a multi-line template literal's text.
  if (spans.some((x) => content.slice(x.start, x.end).includes('`'))) return [];
  const indent = content.slice(spans[0].start, group[0].getStart(sf));
  const moved = spans.map((x) => {
    const own = firstLineRemoval(sf, content, x.first);
    const text = content.slice(x.start, own.start) + content.slice(own.end, x.end).replace(/\n+$/, '\n');
    return text.replace(/^(?=.)/gm, '  ');
  });
  const title = `with ${setup.name} = ${setup.init}`.replace(/\s+/g, ' ');
  let wrapper =
    `${indent}describe(${jsString(title.length > 100 ? `with ${setup.name}` : title)}, () => {\n` +
    hookText(setup, indent + '  ') +
    moved.join('\n') +
    `${indent}});\n\n`;
  const removals = spans.map((x) => ({ start: x.start, end: x.end, text: '' }));
  // The tests that ended the block moved: no blank line before its `});` (after the group, or a test that stays).
  if (endsBlock) {
    let k = removals.length - 1;
    while (k > 0 && removals[k - 1].end === removals[k].start) k--;
    if (k === 0) wrapper = wrapper.replace(/\n\n$/, '\n');
    else while (content[removals[k].start - 2] === '\n') removals[k].start--;
  }
  return [{ start: spans[0].start, end: spans[0].start, text: wrapper }, ...removals];
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
