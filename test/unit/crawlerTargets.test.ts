import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import {
  alternateBuildDirs,
  expandPattern,
  exportTargets,
  packageSpecifier,
  primaryTargets,
  resolveEntry,
} from '../../server/src/agents/crawler/entryPoints';
import { crawlWorkspace } from '../../server/src/agents/crawler/staticMap';
import { nonProductReason } from '../../server/src/agents/crawler/targets';
import { generateCases } from '../../server/src/agents/generator/offline';
import { validate } from '../../server/src/contracts/validate';
import { makeRepo, removeRepos } from '../helpers/fixtureRepo';

const DIST_ONLY = path.join(__dirname, '..', 'fixtures', 'dist-only');
// ramda@0.30.1's package.json `exports`, as published.
const RAMDA_EXPORTS = {
  '.': { require: './src/index.js', import: './es/index.js', default: './src/index.js' },
  './es/*': './es/*.js',
  './src/*': './src/*.js',
  './dist/*': './dist/*.js',
  './es/': './es/',
  './src/': './src/',
  './dist/': './dist/',
};

after(removeRepos);

describe('crawler targets: what is product code', () => {
  // Paths seen in published packages (rollup, jest, ramda, semver, requests, attrs layouts).
  const notProduct: [string, string][] = [
    ['rollup.config.js', 'a build or tool config'],
    ['rollup.config.mjs', 'a build or tool config'],
    ['jest.config.ts', 'a build or tool config'],
    ['vite.config.mts', 'a build or tool config'],
    ['.eslintrc.cjs', 'a build or tool config'],
    ['babel.config.json.js', 'a build or tool config'],
    ['Gruntfile.js', 'a build or tool config'],
    ['gulpfile.mjs', 'a build or tool config'],
    ['types/index.d.ts', 'type declarations'],
    ['dist/index.d.cts', 'type declarations'],
    ['index.d.mts', 'type declarations'],
    ['bench/parse.js', 'a benchmark'],
    ['benchmarks/run.py', 'a benchmark'],
    ['src/sort.bench.ts', 'a benchmark'],
    ['scripts/release.js', 'a script or tool'],
    ['tools/gen_tables.py', 'a script or tool'],
    ['fuzz/fuzz_parse.py', 'a fuzzer'],
    ['tests/__init__.py', 'a test or test helper'],
    ['conftest.py', 'a Python build or test setup file'],
    ['setup.py', 'a Python build or test setup file'],
    ['test/helpers/server.js', 'a test or test helper'],
    ['src/__tests__/add.js', 'a test or test helper'],
    ['lib/add.spec.ts', 'a test or test helper'],
    // a package's own tape or node test beside its module (split2@4.2.0 ships test.js)
    ['test.js', 'a test or test helper'],
    ['tests.mjs', 'a test or test helper'],
    ['src/pkg/test_core.py', 'a test or test helper'],
    ['test/fixtures/a.js', 'a test or test helper'],
    ['fixtures/valid.js', 'a fixture'],
    ['examples/basic.js', 'an example or documentation'],
    ['docs/conf.py', 'an example or documentation'],
    ['Documentation/sphinx/kerneldoc.py', 'an example or documentation'],
    ['dist/ramda.min.js', 'vendored or generated code'],
    // tinycolor2@1.6.0's minified bundle
    ['dist/tinycolor-min.js', 'vendored or generated code'],
  ];
  for (const [p, why] of notProduct) it(`${p}: ${why}`, () => assert.equal(nonProductReason(p), why));

  const product = [
    'index.js',
    'src/index.ts',
    'lib/semver.js',
    'src/requests/api.py',
    'src/attr/__init__.py',
    'es/add.js',
    'dist/index.cjs',
    'classes/range.js',
    'src/internal/_curry2.js',
    'src/testable.js',
    'lib/contest.js',
    'src/configure.js',
  ];
  for (const p of product) it(`${p}: product code`, () => assert.equal(nonProductReason(p), undefined));
});

describe('crawler entry points: package.json resolved as Node resolves it', () => {
  it('every condition, nested conditions and fallback arrays; types left out; patterns kept as patterns', () => {
    const targets = exportTargets({
      '.': {
        types: './index.d.ts',
        node: { import: './esm/index.mjs', require: './cjs/index.cjs' },
        default: ['./browser.js', 'not-relative'],
      },
      './feature/*': { import: './esm/feature/*.mjs' },
      './internal': null,
    });
    assert.deepEqual(targets, [
      { subpath: '.', target: 'esm/index.mjs', conditions: ['node', 'import'] },
      { subpath: '.', target: 'cjs/index.cjs', conditions: ['node', 'require'] },
      { subpath: '.', target: 'browser.js', conditions: ['default'] },
      { subpath: './feature/*', target: 'esm/feature/*.mjs', conditions: ['import'] },
    ]);
    assert.deepEqual(exportTargets('./main.js'), [{ subpath: '.', target: 'main.js', conditions: [] }]);
  });

  it('the target a test loads: require before import, an existing file before a missing one', () => {
    const targets = exportTargets(RAMDA_EXPORTS).filter((t) => !t.target.includes('*'));
    assert.deepEqual(
      primaryTargets(targets, () => true).map((t) => t.target),
      ['src/index.js'],
    );
    const esmOnly = exportTargets({ '.': { import: './dist/a.mjs', require: './dist/a.cjs' } });
    assert.deepEqual(
      primaryTargets(esmOnly, (p) => p === 'dist/a.mjs').map((t) => t.target),
      ['dist/a.mjs'],
    );
    // clsx@2.1.1's './lite': `import: { default }` beside `default: { default }`; the second is the CommonJS build.
    const clsxLite = exportTargets({
      './lite': {
        import: { types: './clsx.d.mts', default: './dist/lite.mjs' },
        default: { types: './clsx.d.ts', default: './dist/lite.js' },
      },
    });
    assert.deepEqual(
      primaryTargets(clsxLite, () => true).map((t) => t.target),
      ['dist/lite.js'],
    );
  });

  it('subpath patterns expand over the tree; ramda files get `ramda/src/add`, es/ and dist/ are another build', () => {
    const files = new Set([
      'src/index.js',
      'src/add.js',
      'src/internal/_curry2.js',
      'es/index.js',
      'es/add.js',
      'dist/ramda.js',
      'package.json',
    ]);
    const [srcPattern] = exportTargets(RAMDA_EXPORTS).filter((t) => t.subpath === './src/*');
    assert.deepEqual(expandPattern(srcPattern, '', files), [
      ['./src/index', 'src/index.js'],
      ['./src/add', 'src/add.js'],
      ['./src/internal/_curry2', 'src/internal/_curry2.js'],
    ]);
    const pkg = { dir: '', manifest: 'package.json', json: { name: 'ramda', main: './src/index.js', exports: RAMDA_EXPORTS } };
    assert.equal(packageSpecifier('src/index.js', pkg, files), 'ramda');
    assert.equal(packageSpecifier('src/add.js', pkg, files), 'ramda/src/add');
    const entries = {
      entry_points: [
        { path: 'es/index.js', kind: 'module' },
        { path: 'es/index.js', kind: 'exports' },
      ],
    };
    assert.deepEqual(alternateBuildDirs(entries, [pkg], ['src/index.js']), ['es/', 'dist/']);
    // main at the package root, module in es/ (voca): es/ is another build, not part of the root's code
    const rootMain = { dir: '', manifest: 'package.json', json: { name: 'voca', main: 'index.js', module: 'es/index.js' } };
    assert.deepEqual(alternateBuildDirs({ entry_points: [{ path: 'es/index.js', kind: 'module' }] }, [rootMain], ['index.js']), ['es/']);
  });

  it('a file `exports` does not expose has no package specifier; without `exports` every file is importable', () => {
    const files = new Set(['lib/index.js', 'lib/util.js']);
    const closed = { dir: '', manifest: 'package.json', json: { name: 'closed', exports: { '.': './lib/index.js' } } };
    assert.equal(packageSpecifier('lib/util.js', closed, files), undefined);
    const open = { dir: '', manifest: 'package.json', json: { name: 'open', main: 'lib' } };
    assert.equal(packageSpecifier('lib/index.js', open, files), 'open');
    assert.equal(packageSpecifier('lib/util.js', open, files), 'open/lib/util.js');
  });

  it('a build that is not in the tree maps to the source it is built from; a build that is all there is stays', () => {
    assert.equal(resolveEntry('./dist/index.js', new Set(['src/index.ts'])), 'src/index.ts');
    assert.equal(resolveEntry('./dist/esm/util.mjs', new Set(['src/util.ts', 'dist/esm/util.mjs'])), 'src/util.ts');
    assert.equal(resolveEntry('./dist/index.cjs', new Set(['dist/index.cjs'])), 'dist/index.cjs');
    assert.equal(resolveEntry('lib', new Set(['lib/index.js'])), 'lib/index.js');
  });
});

describe('crawler reach: key files are what the entry points expose', () => {
  it('a dist-only package (exports → dist/index.cjs, dist/index.mjs; no src) gets its dist files, and behaviour cases', async () => {
    const { map } = await crawlWorkspace(DIST_ONLY);
    assert.ok(validate('crawler-output', map).ok);
    assert.deepEqual(map.key_files.map((k) => [k.path, k.import_specifier]).sort(), [
      ['dist/index.cjs', 'dist-only-units'],
      ['dist/temperature.cjs', 'dist-only-units/temperature'],
    ]);
    assert.deepEqual(
      map.key_files.find((k) => k.path === 'dist/index.cjs')!.symbols.map((s) => s.name),
      ['kmToMiles', 'formatBytes', 'celsiusToFahrenheit'],
    );
    const examples = generateCases(map, 'standard').cases.filter(
      (c) => c.evidence?.source !== undefined && c.oracle?.expected !== undefined,
    );
    const shown = examples.map((c) => `${c.target.symbol} → ${JSON.stringify(c.oracle!.expected)}`);
    // Expected values are code: the documented results, not only the export's shape.
    for (const want of ['kmToMiles → "6.214"', `formatBytes → "'1.5 KiB'"`, 'celsiusToFahrenheit → "212"'])
      assert.ok(shown.includes(want), `${want} in ${shown.join('; ')}`);
  });

  it('configs, scripts, benchmarks, declarations, fixtures and tests are never targeted; a reached odd name is', async () => {
    const dir = await makeRepo('nonproduct', {
      'package.json': JSON.stringify({ name: 'odd', main: 'lib/index.js', scripts: { test: 'jest' } }),
      'lib/index.js': "const { slug } = require('./tools/slug');\nexports.slug = slug;\nexports.upper = (s) => s.toUpperCase();\n",
      'lib/tools/slug.js': "exports.slug = (s) => s.toLowerCase().replace(/\\s+/g, '-');\n",
      'rollup.config.js': 'export default { input: "lib/index.js" };\n',
      'jest.config.ts': 'export default { testEnvironment: "node" };\n',
      'bench/slug.bench.js': 'exports.run = () => 1;\n',
      'benchmark.js': 'exports.run = () => 1;\n',
      'scripts/release.js': 'exports.release = () => 1;\n',
      'types/index.d.ts': 'export declare function slug(s: string): string;\n',
      'tests/__init__.py': 'def helper():\n    return 1\n',
      'conftest.py': 'def fixture_x():\n    return 1\n',
      'test/helpers/make.js': 'exports.make = () => 1;\n',
      'fixtures/sample.js': 'exports.sample = 1;\n',
      'examples/demo.js': 'exports.demo = 1;\n',
      'fuzz/fuzz_slug.js': 'exports.fuzz = 1;\n',
    });
    const { map } = await crawlWorkspace(dir);
    // lib/tools/ looks like a tools folder, but the entry requires it: product code.
    assert.deepEqual(map.key_files.map((k) => k.path).sort(), ['lib/index.js', 'lib/tools/slug.js']);
    // 11 code files (the .d.ts is no code file to begin with); none parsed as a target.
    assert.equal(map.omitted?.find((o) => o.what.startsWith('source files that are not product code'))?.count, 11);
  });

  it('follows CommonJS and ESM re-exports to the defining modules; a key-file limit that cuts is reported', async () => {
    const modules = ['add', 'sub', 'mul', 'div', 'clamp', 'sum', 'mean', 'range'];
    const files: Record<string, string> = {
      'package.json': JSON.stringify({
        name: 'minimath',
        main: 'src/index.js',
        exports: { '.': { require: './src/index.js', import: './es/index.mjs' } },
      }),
      // The CommonJS entry: property assignment, Object.assign over a sub-barrel, a whole-module re-export.
      'src/index.js':
        "module.exports.add = require('./add.js');\nmodule.exports.sub = require('./sub.js');\nObject.assign(module.exports, require('./stats/index.js'));\nmodule.exports.mul = require('./mul.js');\nmodule.exports.div = require('./div.js');\nmodule.exports.clamp = require('./clamp.js');\n",
      'src/stats/index.js': "module.exports = { sum: require('./sum.js'), mean: require('./mean.js'), range: require('./range.js') };\n",
      'src/internal/_check.js':
        "module.exports = function _check(x) { if (typeof x !== 'number') throw new TypeError('number expected'); return x; };\n",
      'es/index.mjs': "export * from './all.mjs';\n",
      'es/all.mjs': modules.map((m) => `export const ${m} = () => 0;`).join('\n'),
    };
    const body: Record<string, string> = { add: 'a + b', sub: 'a - b', mul: 'a * b', div: 'a / b', clamp: 'Math.min(b, Math.max(0, a))' };
    for (const m of ['add', 'sub', 'mul', 'div', 'clamp'])
      files[`src/${m}.js`] =
        `const _check = require('./internal/_check.js');\nmodule.exports = function ${m}(a, b) { _check(a); return ${body[m]}; };\n`;
    files['src/stats/sum.js'] = 'module.exports = function sum(xs) { return xs.reduce((a, b) => a + b, 0); };\n';
    files['src/stats/mean.js'] = "const sum = require('./sum.js');\nmodule.exports = function mean(xs) { return sum(xs) / xs.length; };\n";
    files['src/stats/range.js'] = 'module.exports = function range(n) { return Array.from({ length: n }, (_, i) => i); };\n';
    const dir = await makeRepo('reexports', files);
    const runtime = JSON.parse(
      execFileSync(process.execPath, ['-e', `process.stdout.write(JSON.stringify(Object.keys(require(${JSON.stringify(dir)}))))`], {
        encoding: 'utf8',
      }),
    ) as string[];
    assert.deepEqual([...runtime].sort(), [...modules].sort());

    const { map } = await crawlWorkspace(dir);
    const defining = new Map(
      map.key_files.filter((k) => k.path !== 'src/index.js').flatMap((k) => k.symbols.map((s) => [s.name, k.path] as const)),
    );
    for (const name of runtime) assert.ok(defining.has(name), `${name} is defined in a key file (${[...defining.keys()].join(', ')})`);
    assert.equal(defining.get('mean'), 'src/stats/mean.js');
    assert.equal(
      map.key_files.find((k) => k.path === 'src/stats/mean.js')?.import_specifier,
      './src/stats/mean.js',
      'exports does not expose it: a relative path',
    );
    assert.ok(!map.key_files.some((k) => k.path.startsWith('es/')), 'the ESM build of the same code is not targeted twice');
    const helper = map.key_files.findIndex((k) => k.path === 'src/internal/_check.js');
    assert.ok(helper > map.key_files.findIndex((k) => k.path === 'src/clamp.js'), 'helpers rank below the public modules');

    const cut = (await crawlWorkspace(dir, { maxKeyFiles: 4 })).map;
    assert.equal(cut.key_files.length, 4);
    assert.equal(cut.key_files[0].path, 'src/index.js');
    const omitted = cut.omitted?.find((o) => o.what === 'modules with exports, not key files');
    assert.equal(omitted?.count, map.key_files.length - 4);
    assert.match(omitted!.reason, /key-file budget of 4/);
  });

  it('Python: the package reached from __init__.py (src layout); tests/__init__.py and conftest.py are not targets', async () => {
    const dir = await makeRepo('pyreach', {
      'pyproject.toml': '[project]\nname = "shapes"\nversion = "1.0"\n',
      'src/shapes/__init__.py': 'from .area import circle_area\nfrom .util.names import label\n__all__ = ["circle_area", "label"]\n',
      'src/shapes/area.py':
        'import math\n\ndef circle_area(r):\n    """Area.\n\n    >>> round(circle_area(1), 2)\n    3.14\n    """\n    return math.pi * r * r\n',
      'src/shapes/util/__init__.py': '',
      'src/shapes/util/names.py': 'def label(n):\n    return f"shape {n}"\n',
      'tests/__init__.py': 'def helper():\n    return 1\n',
      'tests/test_area.py': 'from shapes import circle_area\n\ndef test_one():\n    assert circle_area(0) == 0\n',
      'conftest.py': 'def pytest_configure(config):\n    pass\n',
      'scripts/bump.py': 'def bump():\n    return 1\n',
    });
    const { map } = await crawlWorkspace(dir);
    // __init__.py only re-imports: the modules that define the names are the key files.
    assert.deepEqual(map.key_files.map((k) => k.path).sort(), ['src/shapes/area.py', 'src/shapes/util/names.py']);
    assert.deepEqual(
      map.entry_points.filter((e) => e.kind === 'package').map((e) => e.path),
      ['src/shapes/__init__.py'],
    );
    assert.equal(map.key_files.find((k) => k.path === 'src/shapes/area.py')?.import_specifier, 'shapes.area');
  });
  it('a main entry whose exports no parse sees (a UMD bundle) beside an ESM build of the same API: the ESM build is read', async () => {
    // superstruct@2.0.2's layout: `main` a UMD factory, `module` the ES build
    const dir = await makeRepo('umdmain', {
      'package.json': JSON.stringify({
        name: 'umdmain',
        version: '1.0.0',
        type: 'module',
        main: './dist/index.cjs',
        module: './dist/index.mjs',
      }),
      'dist/index.cjs':
        "(function (global, factory) {\n  typeof exports === 'object' ? factory(exports) : factory(global.U = {});\n})(this, function (exports) {\n  function twice(x) { return 2 * x; }\n  exports.twice = twice;\n});\n",
      'dist/index.mjs': 'function twice(x) {\n  return 2 * x;\n}\nexport { twice };\n',
    });
    const { map } = await crawlWorkspace(dir);
    const esm = map.key_files.find((k) => k.path === 'dist/index.mjs');
    assert.deepEqual(
      esm?.symbols.map((s) => s.name),
      ['twice'],
      JSON.stringify(map.key_files.map((k) => k.path)),
    );
  });

  it('a main entry with visible exports: its ESM twin is not read again', async () => {
    const dir = await makeRepo('cjsmain', {
      'package.json': JSON.stringify({ name: 'cjsmain', version: '1.0.0', main: './dist/index.cjs', module: './dist/index.mjs' }),
      'dist/index.cjs': 'function twice(x) { return 2 * x; }\nexports.twice = twice;\n',
      'dist/index.mjs': 'function twice(x) {\n  return 2 * x;\n}\nexport { twice };\n',
    });
    const { map } = await crawlWorkspace(dir);
    assert.deepEqual(
      map.key_files.map((k) => k.path),
      ['dist/index.cjs'],
    );
  });
});
