// One test per documented example form the offline generator reads (docs/test-cases.md), asserting
// the exact oracle, plus the class-method schema regression and README bindings across blocks.
import { strict as assert } from 'node:assert';
import type { CrawlerOutput, KeyFile, SymbolInfo, TestCases } from '../../server/src/contracts/types';
import { validate } from '../../server/src/contracts/validate';
import { parseDoctest } from '../../server/src/agents/generator/doctest';
import { parseJsSnippet } from '../../server/src/agents/generator/jsExamples';
import { generateCases } from '../../server/src/agents/generator/offline';
import { readmeExamples } from '../../server/src/agents/crawler/readmeExamples';

const one = (snippet: string) =>
  parseJsSnippet(snippet, ['lib']).examples.map((e) => ({
    call: e.call,
    outcome: e.outcome,
    expected: e.expected ?? e.error,
    setup: e.setup,
  }));

export function mapOf(
  name: string,
  files: KeyFile[],
  usage: CrawlerOutput['usage_examples'] = [],
  moduleSystem: CrawlerOutput['project']['module_system'] = 'cjs',
): CrawlerOutput {
  return {
    schema_version: '1',
    project: { name, module_system: moduleSystem, typescript: files.some((f) => /\.ts$/.test(f.path)) },
    tree: { files: files.length, dirs: 0, bytes: 100, truncated: false },
    languages: [],
    package_managers: [],
    frameworks: [],
    test_setup: { framework: moduleSystem === 'python' ? 'pytest' : 'node-test', test_dirs: [], config_files: [], evidence: 'test' },
    entry_points: [{ path: files[0].path, kind: moduleSystem === 'python' ? 'package' : 'main', package: name }],
    key_files: files,
    usage_examples: usage,
    skipped: [],
  } as CrawlerOutput;
}

const fn = (name: string, extra: Partial<SymbolInfo> = {}): SymbolInfo => ({
  name,
  kind: 'function',
  exported: true,
  export_style: 'exports.property',
  line: 1,
  params: [{ name: 'x' }],
  ...extra,
});

function valid(cases: TestCases): void {
  const r = validate('test-cases', cases);
  assert.ok(r.ok, JSON.stringify(!r.ok && r.errors));
}

describe('example forms', () => {
  it('`expr === value;` states the result itself', () => {
    assert.deepEqual(one("lib.add(2, 3) === 5;\n'b' === lib.low('B')"), [
      { call: 'lib.add(2, 3)', outcome: 'value', expected: '5', setup: [] },
      { call: "lib.low('B')", outcome: 'value', expected: "'b'", setup: [] },
    ]);
  });

  it('`fn(x); // "value"` with no arrow', () => {
    assert.deepEqual(one('camel("a b"); // "aB"'), [{ call: 'camel("a b")', outcome: 'value', expected: '"aB"', setup: [] }]);
  });

  it('`console.log(fn(x)) // value` is what the call prints', () => {
    assert.deepEqual(one('console.log(pretty(1337)) // 1.34 kB'), [
      { call: 'pretty(1337)', outcome: 'prints', expected: '1.34 kB', setup: [] },
    ]);
  });

  it('a markdown table of `call` → result becomes call //=> result lines', () => {
    const md = "# x\n\n| Input | Output |\n| --- | --- |\n| `slug('A b')` | `'a-b'` |\n| `slug('x|y')` | `'x-y'` |\n| prose | more |\n";
    const [ex] = readmeExamples('README.md', md, [{ name: 'slug', callNames: ['slug'] }]);
    assert.equal(ex.code, "slug('A b') //=> 'a-b'\nslug('x|y') //=> 'x-y'");
    assert.deepEqual(
      one(ex.code).map((e) => [e.call, e.expected]),
      [
        ["slug('A b')", "'a-b'"],
        ["slug('x|y')", "'x-y'"],
      ],
    );
  });

  it('prose after a shown value is not part of it: a remark after any value, words after a literal', () => {
    const snippet = [
      "isString(1, 'foo', 'bar')   //=> false (extra arguments ignored)",
      'Model(42) //=> 42 // Proxied by ObjectModel',
      'exists(k) //=> true if the key exists',
      'head(list) //=> Just 1 (instance of the Maybe ADT)',
      "label('a (b)') //=> 'a (b)'",
      'pair(1, 2) //=> Pair(1, 2)',
    ].join('\n');
    assert.deepEqual(
      one(snippet).map((e) => [e.outcome, e.expected]),
      [
        ['value', 'false'],
        ['value', '42'],
        ['value', 'true'],
        ['prints', 'Just 1'],
        ['value', "'a (b)'"],
        ['prints', 'Pair(1, 2)'],
      ],
    );
  });

  it('a result that names a literal bound earlier is that literal, however many lines it spans', () => {
    const ex = one('const output = {\n  a: [1, 2],\n};\ngroup(input);\n// => output\nconst n = f();\ng(1) // => n');
    assert.deepEqual(
      ex.map((e) => [e.call, e.outcome, e.expected]),
      [
        ['group(input)', 'value', '{\n  a: [1, 2],\n}'],
        ['g(1)', 'prints', 'n'],
      ],
    );
  });

  it("`//=> EXCEPTION: '…'` documents a throw; `x.toString() //=> 9` is the printed 9", () => {
    assert.deepEqual(one("Model(0) //=> EXCEPTION: 'Value must be > 0 (got: 0)'\nnew Num(9).toString() //=> 9\nString(true) //=> true"), [
      { call: 'Model(0)', outcome: 'throws', expected: 'Error', setup: [] },
      { call: 'new Num(9).toString()', outcome: 'prints', expected: '9', setup: [] },
      { call: 'String(true)', outcome: 'prints', expected: 'true', setup: [] },
    ]);
  });

  it('multi-line setup before the call, only the statements the call needs', () => {
    const ex = one("const opts = {\n  sep: '_',\n};\nconst unused = 1;\nconst m = make(opts);\nm.run('a b') // => 'a_b'");
    assert.deepEqual(ex, [
      { call: "m.run('a b')", outcome: 'value', expected: "'a_b'", setup: ["const opts = {\n  sep: '_',\n}", 'const m = make(opts)'] },
    ]);
  });

  it('documented thrown errors: `// throws TypeError`, `//=> TypeError: …`, doctest Traceback', () => {
    assert.deepEqual(one("parse(null) // throws TypeError\nparse('') //=> TypeError: empty input"), [
      { call: 'parse(null)', outcome: 'throws', expected: 'TypeError', setup: [] },
      { call: "parse('')", outcome: 'throws', expected: 'TypeError', setup: [] },
    ]);
    const py = parseDoctest(">>> parse('')\nTraceback (most recent call last):\n  ...\nValueError: empty input").examples;
    assert.deepEqual(
      py.map((e) => [e.call, e.outcome, e.error]),
      [["parse('')", 'throws', 'ValueError']],
    );
  });

  it('doctest `assert f(x) == "…"` is an example, never `actual = assert …`', () => {
    const parsed = parseDoctest('>>> from pkg import f\n>>> assert f(2) == "two"\n>>> assert ok()\n>>> x = 1\n1');
    assert.deepEqual(
      parsed.examples.map((e) => [e.call, e.outcome, e.expected, e.setup]),
      [['f(2)', 'value', '"two"', ['from pkg import f']]],
    );
    assert.deepEqual(
      parsed.skipped.map((s) => s.reason),
      ['output follows a statement, not an expression'],
    );
  });

  it('a name bound twice: the later binding wins for the calls after it', () => {
    const ex = one("const is = pm('*.js');\nis('a.js') //=> true\nconst is = pm('*.md');\nis('a.md') //=> true");
    assert.deepEqual(
      ex.map((e) => e.setup),
      [["const is = pm('*.js')"], ["const is = pm('*.md')"]],
    );
  });
});

describe('README bindings across blocks', () => {
  const file: KeyFile = {
    path: 'index.js',
    language: 'JavaScript',
    rank: 100,
    module_system: 'cjs',
    import_specifier: 'pm',
    symbols: [fn('pm', { export_style: 'module.exports' })],
  };
  const usage = (line: number, code: string) => ({ source: 'README.md', line, lang: 'js', code, symbols: ['pm'] });

  it('carries an alias and a derived value from earlier blocks, in document order', () => {
    const map = mapOf(
      'pm',
      [file],
      [
        usage(30, "lib('b.md') //=> false"),
        usage(1, "var lib = require('pm')"),
        usage(10, "const isMatch = lib('*.js')"),
        usage(20, "isMatch('a.js') //=> true"),
      ],
    );
    const cases = generateCases(map, 'standard');
    valid(cases);
    const derived = cases.cases.find((c) => c.oracle?.call === "isMatch('a.js')");
    assert.deepEqual(derived?.oracle, {
      kind: 'equals',
      language: 'javascript',
      call: "isMatch('a.js')",
      expected: 'true',
      setup: "const isMatch = lib('*.js')",
      bindings: [{ local: 'lib', import: 'module' }],
    });
    const alias = cases.cases.find((c) => c.oracle?.call === "lib('b.md')");
    assert.deepEqual(alias?.oracle?.bindings, [{ local: 'lib', import: 'module' }]);
    assert.equal(alias?.oracle?.setup, undefined);
    // pm has behaviour cases, so no existence check is planned for it
    assert.equal(cases.cases.filter((c) => c.kind === 'smoke').length, 0);
  });

  it('does not expect the shown value of a random result', () => {
    const nano: KeyFile = { ...file, import_specifier: 'nanoid', symbols: [fn('nanoid', { params: [] })] };
    const cases = generateCases(
      mapOf(
        'nanoid',
        [nano],
        [
          {
            source: 'README.md',
            line: 1,
            lang: 'js',
            code: 'const { nanoid } = require(\'nanoid\')\nnanoid() //=> "V1StGXR8_Z5jdHi6B-myT"',
            symbols: ['nanoid'],
          },
        ],
      ),
      'standard',
    );
    assert.deepEqual(
      cases.cases.map((c) => c.kind),
      ['smoke'],
    );
    assert.match(cases.not_planned?.map((n) => n.reason).join('\n') ?? '', /id-like result/);
  });
});

describe('a doc alias of the package (ramda: `R.add(2, 3); //=> 5` in src/add.js)', () => {
  it('binds the alias to the entry point and plans no export check for the documented function', () => {
    const index: KeyFile = {
      path: 'src/index.js',
      language: 'JavaScript',
      rank: 100,
      module_system: 'cjs',
      import_specifier: 'ramda',
      symbols: [fn('add')],
    };
    const add: KeyFile = {
      path: 'src/add.js',
      language: 'JavaScript',
      rank: 10,
      module_system: 'cjs',
      symbols: [fn('add', { export_style: 'module.exports', examples: ['R.add(2, 3);       //=>  5'] })],
    };
    const cases = generateCases(mapOf('ramda', [index, add]), 'standard');
    valid(cases);
    assert.deepEqual(
      cases.cases.map((c) => [c.kind, c.target.file, c.oracle?.call, c.oracle?.expected, c.oracle?.bindings]),
      [['example', 'src/index.js', 'R.add(2, 3)', '5', [{ local: 'R', import: 'module' }]]],
    );
  });
});

describe('class methods (schema regression: /cases/0/oracle/bindings/0/local must match pattern)', () => {
  it('binds the Python class for `Cache.get` and calls the method through the documented setup', () => {
    const py: KeyFile = {
      path: 'cachelib/__init__.py',
      language: 'python',
      rank: 100,
      import_specifier: 'cachelib',
      symbols: [
        { name: 'Cache', kind: 'class', exported: true, export_style: 'python', line: 1 },
        {
          name: 'Cache.get',
          kind: 'method',
          exported: true,
          export_style: 'python',
          line: 5,
          params: [{ name: 'key' }],
          doc: 'Get a value.\n\n>>> from cachelib import Cache\n>>> c = Cache()\n>>> c.set("a", 1)\n>>> c.get("a")\n1',
        },
        { name: 'Cache.Entry.size', kind: 'method', exported: true, export_style: 'python', line: 9, params: [] },
      ],
    };
    const cases = generateCases(mapOf('cachelib', [py], [], 'python'), 'standard');
    valid(cases);
    const ex = cases.cases.find((c) => c.kind === 'example');
    assert.deepEqual(ex?.oracle, {
      kind: 'equals',
      language: 'python',
      call: 'c.get("a")',
      expected: '1',
      setup: 'from cachelib import Cache\nc = Cache()\nc.set("a", 1)',
    });
    assert.equal(ex?.target.symbol, 'Cache.get');
    const nested = cases.cases.find((c) => c.target.symbol === 'Cache.Entry.size');
    assert.deepEqual(nested?.oracle, {
      kind: 'type',
      language: 'python',
      call: 'Cache.Entry.size',
      expected: 'callable',
      bindings: [{ local: 'Cache', import: 'named', name: 'Cache' }],
    });
  });

  it('reaches a JS method as a static property or through the prototype', () => {
    const js: KeyFile = {
      path: 'src/index.ts',
      language: 'TypeScript',
      rank: 100,
      module_system: 'esm',
      import_specifier: 'shapes',
      symbols: [
        { name: 'Box', kind: 'class', exported: true, export_style: 'named', line: 1 },
        { name: 'Box.area', kind: 'method', exported: true, export_style: 'named', line: 2, params: [] },
      ],
    };
    const cases = generateCases(mapOf('shapes', [js], [], 'esm'), 'standard');
    valid(cases);
    const m = cases.cases.find((c) => c.target.symbol === 'Box.area');
    assert.deepEqual(m?.oracle, {
      kind: 'type',
      language: 'typescript',
      call: '(Box.area ?? Box.prototype.area)',
      expected: "'function'",
      bindings: [{ local: 'Box', import: 'named', name: 'Box' }],
    });
  });
});
