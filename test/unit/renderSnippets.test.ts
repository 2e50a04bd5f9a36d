// Snippets from documents or models are parsed when a test file is rendered: a broken one is
// rejected with its reason (not_written) and every other case is still written, in every framework.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';
import type { EngineerOutput, TestCases } from '../../server/src/contracts/types';
import { validate } from '../../server/src/contracts/validate';
import { engineerTests } from '../helpers/offlineEngineer';
import type { Framework } from '../../server/src/core/frameworks';
import { checkPython } from '../../server/src/frameworks/pySyntax';
import { jsString } from '../../server/src/frameworks/literals';
import { jestSupportFiles } from '../../server/src/frameworks/jest/support';
import { requirePytest } from '../helpers/python';

type Oracle = NonNullable<TestCases['cases'][number]['oracle']>;

function plan(language: 'javascript' | 'typescript' | 'python', oracles: Oracle[]): TestCases {
  const py = language === 'python';
  return {
    schema_version: '1',
    depth_level: 'standard',
    project: {
      name: 'pk',
      language,
      module_system: py ? 'python' : language === 'typescript' ? 'esm' : 'commonjs',
      typescript: language === 'typescript',
      test_setup: { framework: 'none', test_dirs: [py ? 'tests' : 'test'], config_files: [] },
    },
    cases: oracles.map((oracle, i) => ({
      id: `tc_00000000000${i}`,
      title: `case ${i}`,
      target: { file: py ? 'pk.py' : language === 'typescript' ? 'src/pk.ts' : 'index.js', symbol: 'add' },
      kind: 'example',
      priority: 'P0',
      preconditions: [],
      steps: [],
      expected: [],
      rationale: 'r',
      oracle,
    })),
  } as TestCases;
}

const add = [{ local: 'add', import: 'named' as const, name: 'add' }];
const js = (o: Partial<Oracle>): Oracle => ({ kind: 'equals', language: 'javascript', bindings: add, ...o }) as Oracle;
const py = (o: Partial<Oracle>): Oracle => ({ kind: 'equals', language: 'python', bindings: add, ...o }) as Oracle;

function reasons(out: EngineerOutput): Record<string, string> {
  return Object.fromEntries(out.not_written.map((n) => [n.caseId, n.reason]));
}

function jsParseErrors(path: string, text: string): string[] {
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, path.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  return (sf as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics.map((d) =>
    ts.flattenDiagnosticMessageText(d.messageText, ' '),
  );
}

const JS_CASES: [Oracle, string | undefined][] = [
  [js({ call: 'add(2, 3)', expected: '5' }), undefined],
  [js({ call: 'add(2, 3) 4', expected: '5' }), "oracle.call does not parse: ')' expected at 1:11"],
  [js({ call: 'x); process.exit(1); (y', expected: '5' }), 'oracle.call is not one expression'],
  [
    js({ call: 'add(1, 1)', setup: 'const n: number = 2', expected: '2' }),
    'oracle.setup does not parse: Type annotations can only be used in TypeScript files at 1:10',
  ],
  [
    js({ call: 'add(1, 1)', setup: "import x from 'y'", expected: '2' }),
    'oracle.setup has an import or export at 1:1, which cannot go inside a test function',
  ],
  [js({ call: '<b>{add(1, 1)}</b>', expected: '2' }), 'oracle.call uses JSX, which a plain test file cannot hold'],
  [js({ call: 'add(1, 1)', expected: '[Function: add]' }), "oracle.expected does not parse: ',' expected at 1:10"],
  [
    js({ call: 'add(1, 1)', expected: '2', bindings: [{ local: 'class', import: 'module' }] }),
    "oracle.bindings[0].local 'class' is not a name a test file can bind",
  ],
  [
    js({ call: 'add(1, 1)', expected: '2', bindings: [{ local: 'add', import: 'named', name: "x } from 'evil'; import { y" }] }),
    "oracle.bindings[0].name 'x } from 'evil'; import { y' is not an export name",
  ],
  [js({ call: 'await (add(1, 1))', setup: 'const t = `a\n  b`', expected: '2' }), undefined],
];

describe('rendering: snippets are parsed, a broken one is rejected with its reason', () => {
  for (const fw of ['jest', 'vitest', 'mocha', 'node-test'] as Framework[]) {
    it(`${fw}: each broken JavaScript snippet is listed with its reason; the other cases are written to a file that parses`, () => {
      const out = engineerTests(
        plan(
          'javascript',
          JS_CASES.map(([o]) => o),
        ),
        fw,
      );
      assert.ok(validate('engineer-output', out).ok);
      const want = Object.fromEntries(JS_CASES.flatMap(([, r], i) => (r ? [[`tc_00000000000${i}`, r]] : [])));
      assert.deepEqual(reasons(out), want);
      const [file] = out.files;
      assert.deepEqual(file.caseIds, ['tc_000000000000', 'tc_000000000009']);
      assert.deepEqual(jsParseErrors(file.path, file.content), []);
      assert.ok(!file.content.includes('process.exit') && !file.content.includes('evil'));
      // The awaited call makes its test async; the template literal's second line keeps its text.
      assert.match(
        file.content,
        /it\('case 9', async \(\) => \{ \/\/ tc_000000000009\n {4}const t = `a\n {2}b`;\n {4}const actual = await \(?add\(1, 1\)\)?;/,
      );
    });
  }

  it('TypeScript files accept TypeScript syntax in a snippet', () => {
    const out = engineerTests(plan('typescript', [js({ call: 'add(n, 1)', setup: 'const n: number = 2', expected: '3' })]), 'vitest');
    assert.deepEqual(out.not_written, []);
    assert.match(out.files[0].content, /\n {4}const n: number = 2;\n {4}const actual = add\(n, 1\);\n/);
  });

  it('renders byte for byte the same twice (no state kept between runs)', () => {
    const cases = plan(
      'javascript',
      JS_CASES.map(([o]) => o),
    );
    assert.equal(JSON.stringify(engineerTests(cases, 'jest')), JSON.stringify(engineerTests(cases, 'jest')));
  });

  const PY_CASES: [Oracle, RegExp | undefined][] = [
    [py({ call: 'add(2, 3)', expected: '5' }), undefined],
    // A doctest turned into an assignment: a SyntaxError that used to stop pytest collecting the whole file.
    [py({ call: 'actual = assert add(2, 3) == "5"', expected: '5' }), /^oracle\.call does not parse: invalid syntax at 1:\d+/],
    [py({ call: 'add(1, 1)', setup: 'print "x"', expected: '2' }), /^oracle\.setup does not parse: Missing parentheses in call to 'print'/],
    [
      py({ call: 'add(1, 1)', setup: 'nonlocal q', expected: '2' }),
      /^the test does not compile: no binding for nonlocal 'q' found at line \d+ of the test$/,
    ],
    [
      py({ call: 'add(1, 1)', expected: '2', bindings: [{ local: 'add', import: 'named', name: 'x y' }] }),
      /^oracle\.bindings\[0\] \(as an import line\) does not parse: invalid syntax/,
    ],
    [py({ call: 'add(s, "")', setup: 's = """a\n  b"""', expected: "'a\\n  b'" }), undefined],
  ];

  it('pytest: a broken Python snippet is rejected per case (checked by CPython); the file compiles and its tests pass', function () {
    requirePytest();
    const out = engineerTests(
      plan(
        'python',
        PY_CASES.map(([o]) => o),
      ),
      'pytest',
    );
    const got = reasons(out);
    assert.deepEqual(
      Object.keys(got).sort(),
      PY_CASES.flatMap(([, r], i) => (r ? [`tc_00000000000${i}`] : [])),
    );
    for (const [i, [, r]] of PY_CASES.entries()) if (r) assert.match(got[`tc_00000000000${i}`], r);
    const [file] = out.files;
    assert.deepEqual(file.caseIds, ['tc_000000000000', 'tc_000000000005']);
    // The string's second line is not indented: its value is the documented one.
    assert.ok(file.content.includes('    s = """a\n  b"""\n    actual = add(s, "")\n    assert actual == "a\\n  b"\n'), file.content);
    const run = spawnSync(
      'python3',
      [
        '-c',
        'import sys\nsrc = sys.stdin.read()\nns = {}\nexec(compile(src.replace("from pk import add", "add = lambda a, b: a + b"), "t.py", "exec"), ns)\nfor k, f in ns.items():\n    if k.startswith("test_"): f()\nprint("ran", sum(k.startswith("test_") for k in ns))',
      ],
      { input: file.content.replace('import pytest  # noqa: F401\n', ''), encoding: 'utf8' },
    );
    assert.equal(run.stdout.trim(), 'ran 2', run.stderr);
  });

  it('without python3 the tree-sitter Python grammar rejects the same doctest assignment, and says it checked that way', () => {
    const items = [
      { key: 'a', snippets: [{ field: 'oracle.call', source: 'actual = assert f(x) == "…"', mode: 'eval' as const }] },
      { key: 'b', snippets: [{ field: 'oracle.call', source: 'f(x)', mode: 'eval' as const }] },
      { key: 'c', snippets: [{ field: 'oracle.call', source: 'x = 1', mode: 'eval' as const }] },
    ];
    const got = checkPython(items, []);
    assert.equal(
      got.get('a'),
      'oracle.call does not parse: invalid syntax at 1:10 (python3 was not found: checked with the tree-sitter Python grammar)',
    );
    assert.equal(got.get('b'), undefined);
    assert.match(got.get('c')!, /^oracle\.call is not one expression/);
    assert.deepEqual(checkPython(items, ['/nonexistent/python3']), got, 'an interpreter that cannot start is the same as none');
  });

  it('jsString(s) is the printer’s own literal: one string literal whose value is s, non-ASCII kept readable', () => {
    assert.equal(jsString("it's \u00e9\n"), "'it\\'s \u00e9\\n'");
    assert.equal(jsString('\ud800'), "'\\uD800'", 'a lone surrogate is escaped: UTF-8 cannot hold it');
  });

  it('the jest helpers are the shipped files; the config’s root is set in its syntax tree', () => {
    const assets = join(__dirname, '../../server/src/frameworks/assets');
    const [config, transform] = jestSupportFiles('src/__tests__');
    assert.equal(config.path, 'src/__tests__/amtp.jest.config.cjs');
    assert.equal(
      config.content,
      readFileSync(join(assets, 'amtp.jest.config.cjs'), 'utf8').replace("const ROOT = '..';", "const ROOT = '../..';"),
    );
    assert.equal(transform.content, readFileSync(join(assets, 'amtp.jest-ts-transform.cjs'), 'utf8'));
    const pkg = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as { files: string[] };
    assert.ok(pkg.files.includes('dist/assets/**'), 'the packaged extension ships dist/assets');
  });
});
