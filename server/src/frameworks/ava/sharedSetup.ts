// ava's shared setup (issue 27): `test.beforeEach((t) => { t.context.x = init; })`, each test reading
// `const { x } = t.context;` (frameworks/contextSetup.ts says why the context and why the whole file).
import type * as TS from 'typescript';
import type { SharedSetup } from '../descriptor';
import { hoistIntoContext, requiredModule, type ContextFile } from '../contextSetup';

/**
 * How the hook meets ava's modifiers (ava's lib/runner.js): `beforeEach` runs before every test that
 * runs, `serial` ones too, each with its own context; never for a `skip`ped test (tidied all the
 * same, so it reads the value when someone turns it back on) or a `todo` (no body: passed over).
 * A `failing` test leaves the file alone: a throw in the hook is a hook failure, never the failure
 * the test expects, so moving its first statement out could turn its expected failure into a red run.
 * So does a hook of the file's own (`test.before`, `test.afterEach.always`…), or any other call on `test`.
 */
const TEST_MODIFIERS = new Set(['serial', 'only', 'skip']);

export const avaSharedSetup: SharedSetup = (path, content, ours) => hoistIntoContext(path, content, ours, avaFile);

function avaFile(ts: typeof TS, sf: TS.SourceFile): ContextFile | undefined {
  const test = avaBinding(ts, sf);
  if (!test) return undefined;
  return {
    hook: `${test}.beforeEach`,
    classify: (s) => {
      if (!ts.isExpressionStatement(s) || !ts.isCallExpression(s.expression)) return undefined;
      const chain = calleeChain(ts, s.expression.expression);
      if (chain?.[0] !== test) return undefined;
      const modifiers = chain.slice(1);
      if (modifiers.includes('todo')) return 'pass';
      return modifiers.every((m) => TEST_MODIFIERS.has(m)) ? s.expression : 'stop';
    },
  };
}

/** `test.serial.skip` → ['test', 'serial', 'skip']; undefined for any other callee. */
function calleeChain(ts: typeof TS, e: TS.Expression): string[] | undefined {
  if (ts.isIdentifier(e)) return [e.text];
  if (!ts.isPropertyAccessExpression(e)) return undefined;
  const head = calleeChain(ts, e.expression);
  return head && [...head, e.name.text];
}

/** The name the file gives ava's test function: `const test = require('ava')`, `import test from 'ava'`. */
function avaBinding(ts: typeof TS, sf: TS.SourceFile): string | undefined {
  for (const s of sf.statements) {
    if (ts.isImportDeclaration(s) && ts.isStringLiteral(s.moduleSpecifier) && s.moduleSpecifier.text === 'ava' && s.importClause?.name)
      return s.importClause.name.text;
    if (!ts.isVariableStatement(s)) continue;
    for (const d of s.declarationList.declarations)
      if (requiredModule(ts, d.initializer) === 'ava' && ts.isIdentifier(d.name)) return d.name.text;
  }
  return undefined;
}
