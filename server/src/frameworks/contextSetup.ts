// Shared setup through each test's own context object, for the frameworks whose tests are flat calls
// `test('…', (t) => { … })` with one file-wide hook: ava and node-tap (issue 27). When every test of
// the file starts by building the same value, a `beforeEach` builds it on the test's `t.context`
// and each test reads it there: `const { stack } = t.context;`. A closure variable would not do:
// ava runs a file's tests at once, and tap runs a root `beforeEach` again for every nested subtest.
// The hook has no groups, so it runs for every test: the file changes only when all of its tests
// ask for the value. JavaScript files only: `t.context` is `unknown` in ava's TypeScript types
// without a typed test function, and `any` in tap's, so the value's type would have to be written out.
import type * as TS from 'typescript';
import { applyEdits, type Edit } from '../util/textEdits';
import { typescript } from '../util/typescript';
import { lineStartOf, parseJs } from './jsTestFind';
import { caseIdOf, containsAwait, MIN_TESTS } from './sharedSetup';

/** What a framework says about one file: how its hook is called, and which statements are its tests. */
export interface ContextFile {
  /** the hook's callee: `test.beforeEach` (ava), `beforeEach` (tap) */
  hook: string;
  /** the edit that binds the hook's name, when the file does not yet */
  binding?: Edit;
  /**
   * A top-level statement: a test that may be tidied (its call), 'pass' for one the hook never runs
   * for (ava's `test.todo`), 'stop' when its presence leaves the file as written (a hook of the file's
   * own, a test the moved setup would change), undefined for anything else.
   */
  classify: (s: TS.Statement) => TS.CallExpression | 'pass' | 'stop' | undefined;
}

/** The name the hook's own parameter has. */
const HOOK_PARAM = 't';

/**
 * The file with the first statement all its tests share built on `t.context` by a `beforeEach`;
 * undefined when they do not all share one, or when `ours` is given and a test is not one of them.
 */
export function hoistIntoContext(
  path: string,
  content: string,
  ours: ReadonlySet<string> | undefined,
  frameworkFile: (ts: typeof TS, sf: TS.SourceFile) => ContextFile | undefined,
): string | undefined {
  if (!/\.[cm]?jsx?$/.test(path)) return undefined;
  const ts = typescript();
  const sf = parseJs(path, content);
  const file = frameworkFile(ts, sf);
  // A file that reads a context already has setup of its own (or was tidied before).
  if (!file || mentionsContext(ts, sf)) return undefined;
  const tests: TS.CallExpression[] = [];
  const listed: TS.Statement[] = [];
  for (const s of sf.statements) {
    const kind = file.classify(s);
    if (kind === 'stop') return undefined;
    if (kind) listed.push(s);
    if (kind && kind !== 'pass') tests.push(kind);
  }
  if (tests.length < MIN_TESTS) return undefined;
  if (ours && !listed.every((s) => ours.has(caseIdOf(sf, content, s) ?? ''))) return undefined;
  const firsts = tests.map((c) => sharedFirst(ts, sf, c));
  const key = (f: Shared) => `${f.name}\n${f.init.getText(sf)}`;
  if (firsts.some((f) => !f || key(f) !== key(firsts[0]!))) return undefined;
  const { name, init } = firsts[0]!;
  const at = lineStartOf(content, listed[0].getStart(sf));
  const indent = content.slice(at, listed[0].getStart(sf));
  const hook =
    `${indent}${file.hook}(${containsAwait(ts, init) ? 'async ' : ''}(${HOOK_PARAM}) => {\n` +
    `${indent}  ${HOOK_PARAM}.context.${name} = ${init.getText(sf)};\n${indent}});\n\n`;
  const edits: Edit[] = [
    { start: at, end: at, text: hook },
    ...firsts.map((f) => ({ start: f!.decl.getStart(sf), end: f!.decl.getEnd(), text: `const { ${name} } = ${f!.param}.context;` })),
    ...(file.binding ? [file.binding] : []),
  ];
  return applyEdits(content, edits);
}

interface Shared {
  decl: TS.VariableStatement;
  name: string;
  init: TS.Expression;
  /** the test's parameter, which reads the context */
  param: string;
}

/**
 * `test('…', (t) => { const name = init; … })`: the first statement when the hook can build it
 * instead: one plain parameter to read the context with, and an initializer that does not use the
 * test's `t` (the hook's `t` is another object) or a `t` from outside (the hook's would hide it).
 */
function sharedFirst(ts: typeof TS, sf: TS.SourceFile, call: TS.CallExpression): Shared | undefined {
  const fn = call.arguments[1];
  if (call.arguments.length !== 2 || !(ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) || !ts.isBlock(fn.body)) return undefined;
  const [p, ...moreParams] = fn.parameters;
  if (!p || moreParams.length || !ts.isIdentifier(p.name) || p.initializer || p.dotDotDotToken) return undefined;
  const first = fn.body.statements[0];
  if (fn.body.statements.length < 2 || !ts.isVariableStatement(first) || !(first.declarationList.flags & ts.NodeFlags.Const))
    return undefined;
  const [d, ...more] = first.declarationList.declarations;
  if (more.length || !ts.isIdentifier(d.name) || !d.initializer || d.type) return undefined;
  if (uses(ts, d.initializer, new Set([p.name.text, HOOK_PARAM]))) return undefined;
  return { decl: first, name: d.name.text, init: d.initializer, param: p.name.text };
}

/** Whether the expression reads a variable of one of these names (a property named so is not one). */
function uses(ts: typeof TS, node: TS.Node, names: ReadonlySet<string>): boolean {
  if (ts.isIdentifier(node)) {
    const parent = node.parent;
    const isPropertyName =
      (ts.isPropertyAccessExpression(parent) && parent.name === node) || (ts.isPropertyAssignment(parent) && parent.name === node);
    return names.has(node.text) && !isPropertyName;
  }
  return ts.forEachChild(node, (c) => uses(ts, c, names) || undefined) ?? false;
}

/** `require('tap')` → 'tap': the module a declaration's initializer requires. */
export function requiredModule(ts: typeof TS, init: TS.Expression | undefined): string | undefined {
  if (!init || !ts.isCallExpression(init) || !ts.isIdentifier(init.expression) || init.expression.text !== 'require') return undefined;
  const [arg, ...more] = init.arguments;
  return !more.length && arg && ts.isStringLiteral(arg) ? arg.text : undefined;
}

function mentionsContext(ts: typeof TS, node: TS.Node): boolean {
  if (ts.isPropertyAccessExpression(node) && node.name.text === 'context') return true;
  return ts.forEachChild(node, (c) => mentionsContext(ts, c) || undefined) ?? false;
}
