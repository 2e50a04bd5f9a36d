// Shared setup in a TypeScript test file (./sharedSetup.ts). The hoisted `let x` needs the type
// `const x = init` had, written with no name AMTP would have to import (strict projects type-check
// their tests). A factory gives it: its inferred return type is the value's type, and the hook calls
// it, so the value is built as the test built it:
//   const newStack = () => new Stack<number>();
//   let stack: ReturnType<typeof newStack>;
//   beforeEach(() => {
//     stack = newStack();
//   });
// `ReturnType<typeof lib.parse>` needs no factory, but of an overloaded function it names the last
// overload's result, not the one the test called. A return type is inferred wider than a const in one
// way: a lone literal type widens ('a' → string, Color.Red → Color, unique symbol → symbol), so an
// initializer that may have one stays in the tests. Unions of literals, `as` and `as const` keep
// their type (checked with tsc 5.9). Calls are taken: one widens only when a generic function returns
// its type parameter inferred from a literal (`id('a')`: 'a' → string), a primitive no setup shares.
import type * as TS from 'typescript';

/**
 * Whether `() => init` returns exactly the type of `const x = init`, as far as the syntax tells: a
 * `new`, a call (not `Symbol()`), an object, array, function or class, or an `as` assertion. With
 * `await`, only `await …` as a whole: the hook awaits the factory's promise, which would also settle a
 * thenable that `(await a).b` leaves as it is.
 */
export function factoryKeepsType(ts: typeof TS, init: TS.Expression, waits: boolean): boolean {
  let e = inner(ts, init);
  if (waits) {
    if (!ts.isAwaitExpression(e)) return false;
    e = inner(ts, e.expression);
  }
  if (ts.isCallExpression(e)) {
    const c = e.expression;
    const root = ts.isPropertyAccessExpression(c) ? c.expression : c;
    return !(ts.isIdentifier(root) && root.text === 'Symbol');
  }
  return (
    ts.isNewExpression(e) ||
    ts.isObjectLiteralExpression(e) ||
    ts.isArrayLiteralExpression(e) ||
    ts.isArrowFunction(e) ||
    ts.isFunctionExpression(e) ||
    ts.isClassExpression(e) ||
    ts.isAsExpression(e)
  );
}

/** The expression inside parentheses and `!`. */
function inner(ts: typeof TS, e: TS.Expression): TS.Expression {
  while (ts.isParenthesizedExpression(e) || ts.isNonNullExpression(e)) e = e.expression;
  return e;
}

/** `newStack` for `stack`: the factory's name, numbered when the file already uses it. */
export function factoryName(ts: typeof TS, sf: TS.SourceFile, name: string): string {
  const used = new Set<string>();
  const visit = (n: TS.Node): void => {
    if (ts.isIdentifier(n)) used.add(n.text);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  const base = `new${name[0].toUpperCase()}${name.slice(1)}`;
  let out = base;
  for (let n = 2; used.has(out); n++) out = `${base}${n}`;
  return out;
}

/** The factory, the typed `let` and the hook that calls the factory, at `indent`. */
export function typedHookText(name: string, init: string, waits: boolean, factory: string, indent: string): string {
  // An object literal after `=>` would read as the function's block.
  const body = init.startsWith('{') ? `(${init})` : init;
  const type = waits ? `Awaited<ReturnType<typeof ${factory}>>` : `ReturnType<typeof ${factory}>`;
  const a = waits ? 'async ' : '';
  return (
    `${indent}const ${factory} = ${a}() => ${body};\n` +
    `${indent}let ${name}: ${type};\n` +
    `${indent}beforeEach(${a}() => {\n${indent}  ${name} = ${waits ? 'await ' : ''}${factory}();\n${indent}});\n\n`
  );
}
