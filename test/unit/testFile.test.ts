// Editing tests inside test files by case id, on the syntax tree: nested describes, comments,
// template literals whose text looks like a test, Python classes and parametrized tests.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as ts from 'typescript';
import { findAllJsTests } from '../../server/src/frameworks/jsTestFind';
import {
  findTests,
  keepOnlyTests,
  removeTests,
  replaceTest,
  replaceTests,
  skipTests,
  testSource,
} from '../../server/src/verifier/testFile';

const A = 'tc_aaaaaaaaaaaa';
const B = 'tc_bbbbbbbbbbbb';
const C = 'tc_cccccccccccc';
const D = 'tc_dddddddddddd';

const JS = `// header
const { describe, it, test } = require('node:test');

describe('outer', () => {
  const doc = \`
  it('${A}: not a test, text in a template', () => {});
\`;

  describe('inner', () => {
    // about a
    it('${A}: a', () => {
      assert.equal(1, 1);
    });

    it(\`${B}: b \${1}\`, async () => {
      const t = \`x
  y\`;
    }); // after b
  });

  it.each([1, 2])('${C}: c %d', (n) => {});

  test.only('${D}: ' + 'd', () => {});
});
`;

function parseErrors(path: string, text: string): string[] {
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, path.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  return (sf as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics.map((d) =>
    ts.flattenDiagnosticMessageText(d.messageText, ' '),
  );
}

describe('testFile (JavaScript): edits on the TypeScript syntax tree', () => {
  it('finds tests at any depth, in every name form, and not the text inside a template literal', () => {
    assert.deepEqual(
      findTests('t/x.test.js', JS).map((b) => [b.caseId, b.callee, b.indent]),
      [
        [A, 'it', '    '],
        [B, 'it', '    '],
        [C, 'it.each', '  '],
        [D, 'test.only', '  '],
      ],
    );
    assert.equal(testSource('t/x.test.js', JS, A), `it('${A}: a', () => {\n      assert.equal(1, 1);\n    });`);
  });

  it('removes tests with the comment right above them and one blank line; the template text stays', () => {
    const out = removeTests('t/x.test.js', JS, [A, C]);
    assert.equal(
      out,
      JS.replace(`    // about a\n    it('${A}: a', () => {\n      assert.equal(1, 1);\n    });\n\n`, '').replace(
        `  it.each([1, 2])('${C}: c %d', (n) => {});\n\n`,
        '',
      ),
    );
    assert.ok(out.includes(`it('${A}: not a test, text in a template'`));
    assert.deepEqual(parseErrors('t/x.test.js', out), []);
    assert.deepEqual(
      findTests('t/x.test.js', out).map((b) => b.caseId),
      [B, D],
    );
  });

  it('removing the last test of a block takes the blank line before it, never leaves a blank line before `});`', () => {
    const out = removeTests('t/x.test.js', JS, [D]);
    assert.match(out, /\(n\) => \{\}\);\n\}\);\n$/);
    const both = removeTests('t/x.test.js', JS, [C, D]);
    assert.match(both, /\}\); \/\/ after b\n {2}\}\);\n\}\);\n$/);
  });

  it('keeps only some tests', () => {
    const out = keepOnlyTests('t/x.test.js', JS, [B]);
    assert.deepEqual(
      findTests('t/x.test.js', out).map((b) => b.caseId),
      [B],
    );
    assert.deepEqual(parseErrors('t/x.test.js', out), []);
    assert.ok(out.includes('// header') && out.includes("require('node:test')"));
  });

  it('skips with the reason on one line above: it.skip, it.skip.each, test.skip', () => {
    const out = skipTests(
      't/x.test.js',
      JS,
      new Map([
        [B, 'documented 1,\nobserved 2'],
        [C, 'c'],
        [D, 'd */ e'],
      ]),
    );
    assert.match(out, /\n {4}\/\/ AMTP quarantine: documented 1, observed 2\n {4}it\.skip\(`tc_b/);
    assert.match(out, /\n {2}\/\/ AMTP quarantine: c\n {2}it\.skip\.each\(\[1, 2\]\)\('tc_c/);
    assert.match(out, /\n {2}\/\/ AMTP quarantine: d \*\/ e\n {2}test\.skip\('tc_d/);
    assert.match(out, new RegExp(`\\n {4}it\\('${A}: a'`), 'other tests untouched');
    assert.deepEqual(parseErrors('t/x.test.js', out), []);
  });

  it('replaces a test, re-indented, leaving the lines of a multi-line template as they were', () => {
    const out = replaceTest('t/x.test.js', JS, A, `it('${A}: a', () => {\n  const s = \`keep\n   me\`;\n  assert.ok(s);\n});`);
    assert.ok(
      out.includes(`    // about a\n    it('${A}: a', () => {\n      const s = \`keep\n   me\`;\n      assert.ok(s);\n    });\n`),
      out,
    );
    assert.deepEqual(parseErrors('t/x.test.js', out), []);
  });

  it('a text read again gives the same tests, and what one caller changes in them no other sees', () => {
    const first = findAllJsTests('t/x.test.js', JS);
    first[0].suites.push('changed');
    first[0].start = -1;
    first.pop();
    const again = findAllJsTests('t/x.test.js', JS);
    assert.equal(again.length, 4);
    assert.deepEqual(again[0].suites, ['outer', 'inner']);
    assert.ok(again[0].start > 0);
  });

  it('replaces many tests in one call as one call per test would, a case written twice included', () => {
    // B written twice (a merge of two batches): its second copy goes, as replaceTest does it
    const twice = JS.replace(`  it.each([1, 2])`, `  it('${B}: b again', () => {});\n\n  it.each([1, 2])`);
    const a = `it('${A}: a', () => {\n  assert.ok(\`two\n  lines\`);\n});`;
    const b = `it('${B}: b', () => {});`;
    const d = `test('${D}: d', () => {\n  assert.equal(2, 2);\n});`;
    const oneByOne = [
      [A, a],
      [B, b],
      [D, d],
    ].reduce((text, [id, r]) => replaceTest('t/x.test.js', text, id, r), twice);
    const batch = replaceTests(
      't/x.test.js',
      twice,
      new Map([
        [A, a],
        [B, b],
        [D, d],
      ]),
    );
    assert.equal(batch, oneByOne);
    assert.deepEqual(
      findTests('t/x.test.js', batch).map((t) => [t.caseId, t.callee]),
      [
        [A, 'it'],
        [B, 'it'],
        [C, 'it.each'],
        [D, 'test'],
      ],
    );
    assert.deepEqual(parseErrors('t/x.test.js', batch), []);
    assert.throws(
      () =>
        replaceTests(
          't/x.test.js',
          JS,
          new Map([
            [A, a],
            ['tc_000000000000', b],
          ]),
        ),
      /no test for tc_000000000000/,
    );
  });

  it('refuses a replacement that does not parse, with the parser’s reason; nothing is changed', () => {
    assert.throws(
      () => replaceTest('t/x.test.js', JS, A, `it('${A}: a', () => {`),
      /^Error: the replacement does not parse: '\}' expected at 1:/,
    );
    assert.throws(
      () => replaceTest('t/x.test.js', JS, A, `it('${A}: a', () => { const n: number = 1; });`),
      /the replacement does not parse: Type annotations can only be used in TypeScript files/,
    );
    assert.throws(
      () => replaceTest('t/x.test.js', JS, 'tc_000000000000', `it('tc_000000000000: z', () => {});`),
      /no test for tc_000000000000/,
    );
  });

  it('a TypeScript file with a generic call and satisfies keeps its structure', () => {
    const src = `import { it } from 'vitest';\n\nit('${A}: a', () => {\n  const x = f<number>(1) satisfies number;\n});\n\nit('${B}: b', () => {});\n`;
    assert.equal(
      removeTests('t/x.test.ts', src, [B]),
      `import { it } from 'vitest';\n\nit('${A}: a', () => {\n  const x = f<number>(1) satisfies number;\n});\n`,
    );
  });
});

const PY = `"""Tests."""
from __future__ import annotations

import os


# about a
def test_${A}_a():
    s = """
def test_${D}_not_a_test():
"""
    assert len(s) > 0
# a note about what follows


@pytest.mark.parametrize("x", [
    1,
    2,
])
def test_${B}_b(x):
    assert x


class TestThing:
    """Doc."""

    # about c
    def test_${C}_c(self):
        def test_${D}_nested():
            pass
        assert True


class TestOnly:
    async def test_${D}_d(self):
        await thing()
`;

const python = spawnSync('python3', ['-c', 'import sys; sys.exit(0 if sys.version_info >= (3, 8) else 1)']).status === 0;
function compiles(source: string): string {
  const r = spawnSync('python3', ['-c', 'import sys; compile(sys.stdin.read(), "t.py", "exec")'], { input: source, encoding: 'utf8' });
  return r.status === 0 ? 'ok' : r.stderr.trim().split('\n').pop()!;
}

describe('testFile (Python): edits on the tree-sitter syntax tree', () => {
  it('finds module-level and class test functions with decorators; not nested defs, not text in strings', () => {
    const found = findTests('tests/test_x.py', PY);
    assert.deepEqual(
      found.map((b) => [b.caseId, b.indent, PY.slice(b.fullStart, b.start)]),
      [
        [A, '', '# about a\n'],
        [B, '', ''],
        [C, '    ', '    # about c\n    '],
        [D, '    ', '    '],
      ],
    );
    assert.ok(testSource('tests/test_x.py', PY, B)!.startsWith('@pytest.mark.parametrize("x", [\n    1,'));
    assert.ok(testSource('tests/test_x.py', PY, D)!.startsWith('async def'));
  });

  it('removes a test with its decorators and comments; two blank lines stay between top-level blocks', function () {
    const out = removeTests('tests/test_x.py', PY, [B]);
    assert.ok(out.includes('    assert len(s) > 0\n# a note about what follows\n\n\nclass TestThing:'), out);
    assert.ok(!out.includes('parametrize'));
    if (python) assert.equal(compiles(out), 'ok');
  });

  it('a class whose only test goes is removed whole (an empty class body does not parse)', function () {
    const out = removeTests('tests/test_x.py', PY, [D]);
    assert.ok(!out.includes('class TestOnly'));
    assert.ok(out.endsWith('            pass\n        assert True\n'), JSON.stringify(out.slice(-60)));
    const c = removeTests('tests/test_x.py', PY, [C]);
    assert.ok(c.includes('class TestThing:\n    """Doc."""\n\n\nclass TestOnly:'), 'a class with a docstring left keeps it');
    if (python) for (const text of [out, c, keepOnlyTests('tests/test_x.py', PY, [A])]) assert.equal(compiles(text), 'ok');
  });

  it('skips with a decorator at the test’s indentation; `import pytest` goes after the docstring and __future__ import', function () {
    const out = skipTests(
      'tests/test_x.py',
      PY,
      new Map([
        [C, 'documented 1,\nobserved "2"\u0000'],
        [B, 'b'],
      ]),
    );
    assert.ok(out.startsWith('"""Tests."""\nfrom __future__ import annotations\n\nimport pytest\nimport os\n'), out.slice(0, 120));
    assert.ok(
      out.includes(
        '    # about c\n    # AMTP quarantine: documented 1, observed "2"\n    @pytest.mark.skip(reason="AMTP quarantine: documented 1, observed \\"2\\"")\n    def test_tc_c',
      ),
      out,
    );
    assert.ok(out.includes('# AMTP quarantine: b\n@pytest.mark.skip(reason="AMTP quarantine: b")\n@pytest.mark.parametrize('));
    if (python) assert.equal(compiles(out), 'ok');
    const withImport = `import pytest\n\n\ndef test_${A}_a():\n    pass\n`;
    assert.equal(skipTests('tests/test_y.py', withImport, new Map([[A, 'r']])).match(/import pytest/g)!.length, 1);
  });

  it('replaces a method, re-indented, keeping a multi-line string’s text; refuses one that does not parse', function () {
    const out = replaceTest('tests/test_x.py', PY, C, `def test_${C}_c(self):\n    x = """a\nb"""\n    assert x`);
    assert.ok(out.includes(`    # about c\n    def test_${C}_c(self):\n        x = """a\nb"""\n        assert x\n\n\nclass TestOnly`), out);
    if (python) assert.equal(compiles(out), 'ok');
    assert.throws(
      () => replaceTest('tests/test_x.py', PY, C, `def test_${C}_c(self):\nassert x`),
      /does not parse: expected an indented block|does not parse: invalid syntax/,
    );
  });

  it('still finds the tests of a file that does not parse (the verifier reports it as not loading)', () => {
    const broken = `def test_${A}_a():\n    x = (1,\n\n\ndef test_${B}_b():\n    assert True\n`;
    assert.deepEqual(
      findTests('tests/test_x.py', broken).map((b) => b.caseId),
      [A, B],
    );
  });
});

describe('testFile: skipping a node-tap test', () => {
  it('a file that imports tap gets { skip: reason } after the test name (tap has no test.skip); others keep .skip', () => {
    const tap = "import { test } from 'tap';\n\ntest('tc_0000000000a1: adds', async (t) => {\n  t.equal(1, 2);\n});\n";
    assert.equal(
      skipTests('test/x.amtp.test.mjs', tap, new Map([['tc_0000000000a1', 'possible bug: "1" vs "2"']])),
      'import { test } from \'tap\';\n\n// AMTP quarantine: possible bug: "1" vs "2"\ntest(\'tc_0000000000a1: adds\', { skip: "possible bug: \\"1\\" vs \\"2\\"" }, async (t) => {\n  t.equal(1, 2);\n});\n',
    );
    const ava = "import test from 'ava';\n\ntest('tc_0000000000a1: adds', (t) => {\n  t.is(1, 2);\n});\n";
    assert.match(skipTests('test/x.amtp.test.mjs', ava, new Map([['tc_0000000000a1', 'r']])), /\ntest\.skip\('tc_0000000000a1: adds'/);
  });
});
