// One job per function: no function of the server or client over 60 lines unless the line right
// above it is a comment starting `// long:` that says why (issue 12). Measured on the syntax tree
// (TypeScript's parser), from the function's first line to its last.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '..', '..');
const LIMIT = 60;
const REASON = /^\s*\/\/ long: \S/;

function sources(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return sources(rel);
    return e.name.endsWith('.ts') && rel !== 'server/src/contracts/generated.ts' ? [rel] : [];
  });
}

function isFunction(n: ts.Node): n is ts.FunctionLikeDeclaration {
  return (
    ts.isFunctionDeclaration(n) ||
    ts.isMethodDeclaration(n) ||
    ts.isArrowFunction(n) ||
    ts.isFunctionExpression(n) ||
    ts.isConstructorDeclaration(n) ||
    ts.isGetAccessorDeclaration(n) ||
    ts.isSetAccessorDeclaration(n)
  );
}

/** `file:line (N lines)` for each function over the limit without a `// long:` reason above it. */
export function longFunctions(rel: string, text: string, limit = LIMIT): string[] {
  const sf = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true);
  const lines = text.split('\n');
  const found: string[] = [];
  const visit = (n: ts.Node): void => {
    if (isFunction(n) && n.body) {
      const first = sf.getLineAndCharacterOfPosition(n.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(n.getEnd()).line;
      const length = last - first + 1;
      // the reason may sit above the statement that holds the function (`export const f = () => …`)
      const holder = ts.isVariableDeclaration(n.parent) ? n.parent.parent.parent : n;
      const top = sf.getLineAndCharacterOfPosition(holder.getStart(sf)).line;
      if (length > limit && !REASON.test(lines[top - 1] ?? '')) found.push(`${rel}:${first + 1} (${length} lines)`);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

describe('function length', () => {
  it('finds a long function and accepts one whose reason is given', () => {
    const body = Array.from({ length: 61 }, (_, i) => `  x += ${i};`).join('\n');
    const fn = `function big(x: number) {\n${body}\n  return x;\n}\n`;
    assert.deepEqual(longFunctions('a.ts', fn), ['a.ts:1 (64 lines)']);
    assert.deepEqual(longFunctions('a.ts', `// long: one table, read top to bottom\n${fn}`), []);
    assert.deepEqual(longFunctions('a.ts', `export const big = (x: number) => {\n${body}\n  return x;\n};\n`), ['a.ts:1 (64 lines)']);
  });

  it(`no server or client function is over ${LIMIT} lines without a reason`, () => {
    const files = [...sources('server/src'), ...sources('client/src')];
    assert.ok(files.length > 100, 'the scan finds the sources');
    const long = files.flatMap((f) => longFunctions(f, fs.readFileSync(path.join(ROOT, f), 'utf8')));
    assert.deepEqual(long, []);
  });
});
