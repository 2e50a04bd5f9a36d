import { strict as assert } from 'node:assert';
import { crawlWorkspace } from '../../server/src/agents/crawler/staticMap';
import { validate } from '../../server/src/contracts/validate';
import { ResponseCache } from '../../server/src/mcp/cache';
import { makeRepo, removeRepos } from '../helpers/fixtureRepo';

const sym = (map: Awaited<ReturnType<typeof crawlWorkspace>>['map'], name: string) =>
  map.key_files.flatMap((k) => k.symbols.map((s) => ({ ...s, file: k })).filter((s) => s.name === name))[0];

after(removeRepos);

describe('crawler static analysis on fixture repositories', () => {
  it('CJS library: module.exports, exports.x, JSDoc, mocha setup, README examples', async () => {
    const dir = await makeRepo('cjs', {
      'package.json': JSON.stringify({
        name: 'tiny-math',
        version: '1.0.0',
        main: 'lib/index.js',
        scripts: { test: 'mocha test/' },
        devDependencies: { mocha: '^10' },
      }),
      'lib/index.js': `const { clamp } = require('./clamp');\n/**\n * Adds two numbers.\n * @param {number} a first\n * @param {number} [b=0] second\n * @returns {number}\n * @throws {TypeError} when a is not a number\n * @example\n * add(1, 2) // 3\n */\nfunction add(a, b = 0) { return a + b; }\nmodule.exports = add;\nmodule.exports.clamp = clamp;\nexports.VERSION = '1';\n`,
      'lib/clamp.js': `/** Clamps x. */\nexports.clamp = function clamp(x, lo, hi) { return Math.min(hi, Math.max(lo, x)); };\n`,
      'test/add.test.js': `const add = require('../lib');\n`,
      '.mocharc.json': '{}',
      'README.md':
        '# tiny-math\n\n```js\nconst add = require("tiny-math")\nadd(1, 2) // 3\nadd.clamp(5, 0, 3) // 3\n```\n\n```sh\nnpm install tiny-math\n```\n',
    });
    const { map } = await crawlWorkspace(dir);
    assert.ok(validate('crawler-output', map).ok);
    assert.equal(map.project.module_system, 'cjs');
    assert.deepEqual(
      map.entry_points.map((e) => [e.path, e.kind]),
      [['lib/index.js', 'main']],
    );
    const add = sym(map, 'add');
    assert.equal(add.export_style, 'module.exports');
    assert.equal(add.file.import_specifier, 'tiny-math');
    assert.equal(add.signature, 'add(a: number, b?: number = 0): number'.replace('b?: number = 0', 'b: number = 0'));
    assert.deepEqual(add.throws, ['TypeError: when a is not a number']);
    assert.deepEqual(add.examples, ['add(1, 2) // 3']);
    assert.equal(sym(map, 'clamp').export_style, 'exports.property');
    assert.equal(sym(map, 'VERSION').kind, 'variable');
    assert.equal(map.test_setup.framework, 'mocha');
    assert.equal(map.test_setup.command, 'npm test');
    assert.deepEqual(map.test_setup.test_dirs, ['test']);
    assert.equal(map.test_setup.naming_pattern, '*.test.js');
    assert.equal(map.usage_examples.length, 1);
    assert.deepEqual(map.usage_examples[0].symbols.sort(), ['add', 'clamp']);
    assert.equal(map.usage_examples[0].line, 3);
    assert.equal(map.key_files[0].path, 'lib/index.js', 'entry point ranks first');
    assert.equal(map.samples?.[0].path, 'lib/index.js');
  });

  it('ESM TypeScript library: named/default exports, classes, vitest, exports map', async () => {
    const dir = await makeRepo('esm-ts', {
      'package.json': JSON.stringify({
        name: '@acme/strings',
        type: 'module',
        exports: { '.': { types: './dist/index.d.ts', import: './src/index.ts' }, './slug': './src/slug.ts' },
        devDependencies: { vitest: '^3' },
        scripts: { test: 'vitest run' },
      }),
      'tsconfig.json': '{}',
      'vitest.config.ts': 'export default {}',
      'src/index.ts': `export { slug } from './slug';\n/** Reverses a string. */\nexport function reverse(s: string): string { return [...s].reverse().join(''); }\nexport const upper = async (s: string, times?: number): Promise<string> => s.toUpperCase();\nexport default class Greeter {\n  greet(name: string): string { return 'hi ' + name; }\n  private secret() {}\n}\nexport interface Options { a: number }\nexport enum Mode { A, B }\n`,
      'src/slug.ts': `export function slug(s: string, sep = '-'): string { return s.split(' ').join(sep); }\n`,
      'src/slug.test.ts': `import { slug } from './slug';\n`,
    });
    const { map } = await crawlWorkspace(dir);
    assert.equal(map.project.module_system, 'esm');
    assert.equal(map.project.typescript, true);
    assert.equal(map.test_setup.framework, 'vitest');
    assert.ok(map.test_setup.config_files.includes('vitest.config.ts'));
    assert.equal(map.test_setup.naming_pattern, '*.test.ts');
    assert.deepEqual(
      map.entry_points.filter((e) => e.kind === 'exports').map((e) => [e.name, e.path]),
      [
        ['.', 'src/index.ts'],
        ['./slug', 'src/slug.ts'],
      ],
    );
    const upper = sym(map, 'upper');
    assert.equal(upper.async, true);
    assert.equal(upper.signature, 'async upper(s: string, times?: number): Promise<string>');
    assert.equal(sym(map, 'reverse').doc, 'Reverses a string.');
    assert.equal(sym(map, 'Greeter').export_style, 'default');
    assert.ok(sym(map, 'Greeter.greet'));
    assert.equal(sym(map, 'Greeter.secret'), undefined);
    assert.equal(sym(map, 'Options').kind, 'interface');
    assert.equal(sym(map, 'Mode').kind, 'enum');
    assert.equal(sym(map, 'slug').file.import_specifier, '@acme/strings/slug');
    assert.equal(sym(map, 'reverse').file.import_specifier, '@acme/strings');
    assert.equal(sym(map, 'reverse').file.module_system, 'esm');
  });

  it('Python package: defs, classes, docstrings, doctests, Raises, __all__, pytest, console scripts', async () => {
    const dir = await makeRepo('py', {
      'pyproject.toml':
        '[project]\nname = "calc"\ndependencies = ["fastapi>=0.1"]\n\n[project.scripts]\ncalc = "calc.cli:main"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n\n[build-system]\nrequires = ["setuptools"]\n',
      'src/calc/__init__.py': `"""Calc."""\nfrom .ops import add\n__all__ = [\n  "add",\n  "Calculator",\n]\n\ndef _private():\n    pass\n\ndef helper():\n    pass\n\nclass Calculator:\n    """A calculator."""\n\n    def __init__(self, start: int = 0):\n        self.v = start\n\n    def push(self, x):\n        """Push x.\n\n        >>> Calculator().push(2)\n        2\n        """\n        return x\n`,
      'src/calc/ops.py': `def add(a: int,\n        b: int = 1) -> int:\n    """Add two ints.\n\n    >>> add(2, 3)\n    5\n\n    Raises:\n        TypeError: if a is not an int\n    """\n    return a + b\n\nasync def fetch(url, *args, **kw):\n    '''Fetch.'''\n`,
      'src/calc/__main__.py': 'print(1)\n',
      'tests/test_ops.py': 'from calc.ops import add\n',
      'README.md': '```python\n>>> from calc import add\n>>> add(2, 3)\n5\n```\n',
    });
    const { map } = await crawlWorkspace(dir);
    assert.ok(validate('crawler-output', map).ok);
    assert.equal(map.project.name, 'calc');
    assert.equal(map.project.module_system, 'python');
    assert.equal(map.test_setup.framework, 'pytest');
    assert.equal(map.test_setup.naming_pattern, 'test_*.py');
    assert.deepEqual(map.test_setup.test_dirs, ['tests']);
    assert.ok(map.frameworks.some((f) => f.name === 'fastapi'));
    assert.ok(map.package_managers.some((p) => p.name === 'setuptools'));
    assert.ok(map.entry_points.some((e) => e.kind === 'console_script' && e.name === 'calc' && e.path === 'calc.cli:main'));
    assert.ok(map.entry_points.some((e) => e.kind === '__main__' && e.path === 'src/calc/__main__.py'));
    const add = sym(map, 'add');
    assert.equal(add.signature, 'add(a: int, b: int = 1) -> int');
    assert.deepEqual(add.params, [
      { name: 'a', type: 'int' },
      { name: 'b', type: 'int', default: '1', optional: true },
    ]);
    assert.deepEqual(add.examples, ['>>> add(2, 3)\n5']);
    assert.deepEqual(add.throws, ['TypeError: if a is not an int']);
    assert.equal(add.file.import_specifier, 'calc.ops');
    assert.equal(sym(map, 'fetch').async, true);
    const init = map.key_files.find((k) => k.path === 'src/calc/__init__.py')!;
    assert.deepEqual(
      init.symbols.map((s) => s.name),
      ['Calculator', 'Calculator.__init__', 'Calculator.push'],
      '__all__ decides what is exported',
    );
    assert.deepEqual(sym(map, 'Calculator.push').examples, ['>>> Calculator().push(2)\n2']);
    assert.deepEqual(map.usage_examples[0].symbols, ['add']);
  });

  it('npm-workspaces monorepo: packages, workspaces, per-package entry points', async () => {
    const dir = await makeRepo('mono', {
      'package.json': JSON.stringify({
        name: 'mono',
        private: true,
        workspaces: ['packages/*'],
        scripts: { test: 'jest' },
        devDependencies: { jest: '^29' },
      }),
      'package-lock.json': '{}',
      'packages/a/package.json': JSON.stringify({ name: '@m/a', main: 'index.js', dependencies: { express: '^4' } }),
      'packages/a/index.js': `const b = require('@m/b');\nmodule.exports = function a() { return b(); };\n`,
      'packages/b/package.json': JSON.stringify({ name: '@m/b', type: 'module', exports: './main.js' }),
      'packages/b/main.js': `export default function b() { return 1; }\n`,
      'packages/a/__tests__/a.spec.js': '',
    });
    const { map } = await crawlWorkspace(dir);
    assert.deepEqual(map.package_managers, [
      { name: 'npm', manifest: 'package.json', lockfile: 'package-lock.json', workspaces: ['packages/*'] },
    ]);
    assert.deepEqual(
      map.packages?.map((p) => [p.name, p.dir, p.module_system]),
      [
        ['mono', '.', 'cjs'],
        ['@m/a', 'packages/a', 'cjs'],
        ['@m/b', 'packages/b', 'esm'],
      ],
    );
    assert.ok(map.frameworks.some((f) => f.name === 'express'));
    assert.equal(map.test_setup.framework, 'jest');
    assert.deepEqual(map.test_setup.test_dirs, ['packages/a/__tests__']);
    assert.equal(sym(map, 'a').file.import_specifier, '@m/a');
    assert.equal(sym(map, 'b').export_style, 'default');
    assert.equal(sym(map, 'b').file.import_specifier, '@m/b');
  });

  it('a second crawl of an unchanged tree is served from the cache', async () => {
    const dir = await makeRepo('cache', {
      'package.json': '{"name":"c","main":"i.js"}',
      'i.js': 'module.exports = function c() {}\n',
      'README.md': 'x',
    });
    const cache = new ResponseCache();
    const first = await crawlWorkspace(dir, { cache });
    const second = await crawlWorkspace(dir, { cache });
    assert.equal(first.cache.hits, 0);
    assert.equal(second.cache.misses, 0);
    assert.ok(second.cache.hits >= 4);
    assert.deepEqual(second.map, first.map);
  });
});
