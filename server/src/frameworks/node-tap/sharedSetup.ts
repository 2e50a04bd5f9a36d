// node-tap's shared setup (issue 27): `beforeEach((t) => { t.context.x = init; })` from the file's
// own `{ test }` binding of tap, each test reading `const { x } = t.context;`. Both tap 16 (libtap)
// and tap 18+ (@tapjs/before-each) call the hook with the subtest about to run and give each subtest
// its own context object, so this runs under either. Not a `let x` the hook assigns: a root
// `beforeEach` runs again for every nested subtest, which would replace the value under the test
// still using it, and `t.jobs` can run subtests at once (frameworks/contextSetup.ts).
import type * as TS from 'typescript';
import type { SharedSetup } from '../descriptor';
import { hoistIntoContext, requiredModule, type ContextFile } from '../contextSetup';

/** Calls on a test's `t` that start a nested subtest, which the file-wide hook would run for too. */
const SUBTESTS = new Set(['test', 'skip', 'todo', 'only']);

export const tapSharedSetup: SharedSetup = (path, content, ours) => hoistIntoContext(path, content, ours, tapFile);

function tapFile(ts: typeof TS, sf: TS.SourceFile): ContextFile | undefined {
  const bound = tapBinding(ts, sf);
  const test = bound && [...bound.names].find(([, imported]) => imported === 'test')?.[0];
  if (!bound || !test) return undefined;
  const hook = [...bound.names].find(([, imported]) => imported === 'beforeEach')?.[0];
  // Another `beforeEach` of the file's own would clash with the one the edit binds.
  if (!hook && /\bbeforeEach\b/.test(sf.text)) return undefined;
  const isTap = (e: TS.Expression): boolean =>
    ts.isIdentifier(e) ? bound.names.has(e.text) : ts.isPropertyAccessExpression(e) && isTap(e.expression);
  return {
    hook: hook ?? 'beforeEach',
    ...(hook ? {} : { binding: { start: bound.last.getEnd(), end: bound.last.getEnd(), text: ', beforeEach' } }),
    classify: (s) => {
      if (!ts.isExpressionStatement(s) || !ts.isCallExpression(s.expression) || !isTap(s.expression.expression)) return undefined;
      const call = s.expression;
      // Anything but `test('…', fn)`: a hook of the file's own, skip/todo/only, a test with options.
      if (!ts.isIdentifier(call.expression) || call.expression.text !== test || call.arguments.length !== 2) return 'stop';
      return startsSubtests(ts, call.arguments[1]) ? 'stop' : call;
    },
  };
}

/** Whether a test's function calls `t.test(…)` (or skip, todo, only) on its own parameter. */
function startsSubtests(ts: typeof TS, fn: TS.Expression): boolean {
  if (!(ts.isArrowFunction(fn) || ts.isFunctionExpression(fn))) return false;
  const param = fn.parameters[0]?.name;
  if (!param || !ts.isIdentifier(param)) return false;
  const visit = (n: TS.Node): boolean =>
    (ts.isCallExpression(n) &&
      ts.isPropertyAccessExpression(n.expression) &&
      ts.isIdentifier(n.expression.expression) &&
      n.expression.expression.text === param.text &&
      SUBTESTS.has(n.expression.name.text)) ||
    (ts.forEachChild(n, (c) => visit(c) || undefined) ?? false);
  return visit(fn.body);
}

/**
 * The names the file binds from tap, local → tap's (`const { test } = require('tap')`,
 * `import { test } from 'tap'`), and the last of them, where another name goes.
 */
function tapBinding(ts: typeof TS, sf: TS.SourceFile): { names: Map<string, string>; last: TS.Node } | undefined {
  for (const s of sf.statements) {
    const clause =
      ts.isImportDeclaration(s) && ts.isStringLiteral(s.moduleSpecifier) && s.moduleSpecifier.text === 'tap' ? s.importClause : undefined;
    const named = clause?.namedBindings;
    if (named && ts.isNamedImports(named) && named.elements.length)
      return {
        names: new Map(named.elements.map((e) => [e.name.text, (e.propertyName ?? e.name).text])),
        last: named.elements[named.elements.length - 1],
      };
    if (!ts.isVariableStatement(s)) continue;
    for (const d of s.declarationList.declarations) {
      if (requiredModule(ts, d.initializer) !== 'tap' || !ts.isObjectBindingPattern(d.name) || !d.name.elements.length) continue;
      const names = new Map<string, string>();
      for (const e of d.name.elements) {
        if (!ts.isIdentifier(e.name) || e.dotDotDotToken) return undefined;
        names.set(e.name.text, e.propertyName && ts.isIdentifier(e.propertyName) ? e.propertyName.text : e.name.text);
      }
      return { names, last: d.name.elements[d.name.elements.length - 1] };
    }
  }
  return undefined;
}
