// Statements and branches by istanbul's rules (server/src/coverage/statements.ts, branches.ts) and the
// function that holds a line (server/src/mutation/functions.ts), read from oxc's tree: the cases where
// ESTree and istanbul part ways (parentheses, directives, TypeScript-only code, decorators).
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { syntaxStatements } from '../../server/src/coverage/statements';
import { functionAt } from '../../server/src/mutation/functions';

const TS = `'use strict';
('not a directive');
const f = () => ({ a: 1 });
declare const d: number;
interface I { m(): void }
type T = () => void;
enum E { B = (() => 2)() }
class A { x = 1; declare y: number; static z = () => 3; }
const g = a && (b || c) && ((d || e));
`;

describe('coverage and mutation: the syntax read from oxc', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'amtp-syntax-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  const read = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    const st = syntaxStatements(join(dir, name));
    assert.ok(st, `${name} parses`);
    const at = (start: number, end = start + 8) => readFileSync(join(dir, name), 'utf8').slice(start, end);
    return { statements: st.spans.map((s) => at(s.start, s.end)), branches: st.branches.map((b) => b.arms.map((a) => at(a.start))) };
  };

  it('counts statements as istanbul does: a parenthesized body from its `(`, no directive, nothing declared or typed', () => {
    const { statements } = read('a.ts', TS);
    assert.deepEqual(statements, [
      "('not a directive');",
      '() => ({ a: 1 })',
      '({ a: 1 })',
      '2',
      '1',
      '() => 3',
      '3',
      'a && (b || c) && ((d || e))',
    ]);
  });

  it('flattens a chain through one pair of parentheses; two pairs make a chain of its own', () => {
    const { branches } = read('b.ts', TS);
    assert.deepEqual(branches, [
      ['a && (b ', 'b || c) ', 'c) && ((', '((d || e'],
      ['d || e))', 'e));\n'],
    ]);
  });

  it('reads a .js file that returns at the top level as CommonJS', () => {
    const { statements, branches } = read('r.js', 'if (require.main !== module) return;\nmodule.exports = 1;\n');
    assert.deepEqual(statements, ['if (require.main !== module) return;', 'return;', 'module.exports = 1;']);
    assert.equal(branches.length, 1);
  });

  it('finds the function of a line: a method with its class, an assignment target, a decorated class from its decorator', () => {
    const src = '@sealed\nexport class Shape {\n  area() {\n    return 1;\n  }\n}\nexports.grow = function () {\n  return 2;\n};\n';
    assert.deepEqual(functionAt('s.ts', src, 4), {
      name: 'Shape.area',
      startLine: 3,
      endLine: 5,
      source: '  area() {\n    return 1;\n  }',
    });
    assert.equal(functionAt('s.ts', src, 8).name, 'exports.grow');
    const top = functionAt('s.ts', src, 1);
    assert.deepEqual([top.name, top.startLine, top.endLine], ['(module)', 1, 6]);
  });
});
