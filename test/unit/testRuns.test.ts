// The files a project's own test command runs (server/src/agents/crawler/testRuns.ts), and the
// test file AMTP picks so that command runs it (server/src/frameworks/layout.ts testFilePlace).
import { strict as assert } from 'node:assert';
import type { TestRuns } from '../../server/src/contracts/types';
import { detectTestRuns, type TestRunsInput } from '../../server/src/agents/crawler/testRuns';
import { RENDERERS } from '../../server/src/frameworks';
import { OWN_DIR, runDirs, testFilePlace } from '../../server/src/frameworks/layout';
import type { Project } from '../../server/src/frameworks/types';

function input(
  pkg: Record<string, unknown> | undefined,
  files: Record<string, string> = {},
  extra: Partial<TestRunsInput> = {},
): TestRunsInput {
  const all = { 'lib/index.js': '', 'test/test.js': '', ...files };
  return { pkg, files: new Set(Object.keys(all)), read: async (p) => all[p as keyof typeof all], isPython: false, ...extra };
}

function project(
  runs: TestRuns | undefined,
  over: Partial<Project['test_setup']> = {},
  language: Project['language'] = 'javascript',
): Project {
  return {
    name: 'sample-lib',
    language,
    module_system: language === 'python' ? 'python' : 'cjs',
    typescript: false,
    test_setup: { framework: 'mocha', test_dirs: ['test'], config_files: [], ...over, ...(runs ? { runs } : {}) },
  };
}

describe('the files the project test command runs', () => {
  it('reads the file argument of `mocha test/test.js`', async () => {
    const runs = await detectTestRuns(input({ scripts: { test: 'mocha test/test.js' } }));
    assert.deepEqual(runs, { runner: 'mocha', command: 'mocha test/test.js', patterns: ['test/test.js'], source: 'scripts.test' });
  });

  it('skips env assignments, wrappers, option values and follows `npm run`', async () => {
    const runs = await detectTestRuns(
      input({
        scripts: {
          test: 'npm run lint && npm run unit',
          lint: 'eslint .',
          unit: "NODE_ENV=test c8 mocha -r ts-node/register --timeout 5000 'spec/**/*.spec.js'",
        },
      }),
    );
    assert.equal(runs?.runner, 'mocha');
    assert.deepEqual(runs?.patterns, ['spec/**/*.spec.js']);
    assert.equal(runs?.command, 'npm run lint && npm run unit');
  });

  it('expands a folder argument the way the runner does (mocha: one level unless --recursive)', async () => {
    const flat = await detectTestRuns(input({ scripts: { test: 'mocha test' } }));
    assert.deepEqual(flat?.patterns, ['test/*.{js,cjs,mjs}']);
    const deep = await detectTestRuns(input({ scripts: { test: 'mocha --recursive test/' } }));
    assert.deepEqual(deep?.patterns, ['test/**/*.{js,cjs,mjs}']);
  });

  it('reads the spec of a .mocharc.yml, else mocha defaults', async () => {
    const yml = await detectTestRuns(input({ scripts: { test: 'mocha' } }, { '.mocharc.yml': "spec:\n  - 'tests/unit/**/*.test.js'\n" }));
    assert.deepEqual(yml, { runner: 'mocha', command: 'mocha', patterns: ['tests/unit/**/*.test.js'], source: '.mocharc.yml spec' });
    const none = await detectTestRuns(input({ scripts: { test: 'mocha' } }));
    assert.deepEqual(none?.patterns, ['test/*.{js,cjs,mjs}']);
    assert.equal(none?.source, 'mocha defaults');
  });

  it('reads jest testMatch and testRegex from package.json; jest words are filters, not files', async () => {
    const match = await detectTestRuns(input({ scripts: { test: 'jest src' }, jest: { testMatch: ['**/specs/**/*.check.js'] } }));
    assert.deepEqual(match?.patterns, ['**/specs/**/*.check.js']);
    assert.equal(match?.source, 'package.json jest.testMatch');
    const re = await detectTestRuns(input({ scripts: { test: 'jest' }, jest: { testRegex: '/checks/.*\\.js$' } }));
    assert.deepEqual(re?.patterns, ['//checks/.*\\.js$/']);
  });

  it('reads literal patterns from jest.config.js and vitest.config.ts on the syntax tree, never running them', async () => {
    const jest = await detectTestRuns(
      input(
        { scripts: { test: 'jest' } },
        { 'jest.config.js': "module.exports = { verbose: true, testMatch: ['<rootDir>/checks/**/*.check.js', `**/x.js`] };\n" },
      ),
    );
    assert.deepEqual(jest && { patterns: jest.patterns, source: jest.source }, {
      patterns: ['<rootDir>/checks/**/*.check.js', '**/x.js'],
      source: 'jest.config.js testMatch',
    });
    const regex = await detectTestRuns(
      input({ scripts: { test: 'jest' } }, { 'jest.config.ts': 'export default { testRegex: /checks\\/.*\\.js$/ };\n' }),
    );
    assert.deepEqual(regex?.patterns, ['/checks\\/.*\\.js$/']);
    const vitest = await detectTestRuns(
      input(
        { scripts: { test: 'vitest run' } },
        {
          'vitest.config.ts':
            "import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { coverage: { include: ['src/**'] }, include: ['tests/**/*.spec.ts'] } });\n",
        },
      ),
    );
    assert.deepEqual(vitest && { patterns: vitest.patterns, source: vitest.source }, {
      patterns: ['tests/**/*.spec.ts'],
      source: 'vitest.config.ts test.include',
    });
    const computed = await detectTestRuns(
      input(
        { scripts: { test: 'vitest' } },
        { 'vitest.config.ts': 'const dirs = ["a"];\nexport default { test: { include: dirs.map((d) => d + "/**") } };\n' },
      ),
    );
    assert.equal(computed?.source, 'vitest defaults');
    const broken = await detectTestRuns(input({ scripts: { test: 'jest' } }, { 'jest.config.js': 'module.exports = { testMatch: [' }));
    assert.equal(broken?.source, 'jest defaults');
  });

  it('reads ava files and tells a node script wrapper from node --test', async () => {
    const ava = await detectTestRuns(input({ scripts: { test: 'ava' }, ava: { files: ['test/**/*', '!test/helpers/**'] } }));
    assert.deepEqual(ava, { runner: 'ava', command: 'ava', patterns: ['test/**/*'], source: 'package.json ava.files' });
    const wrapper = await detectTestRuns(input({ scripts: { test: 'node test/run.js' } }, { 'test/run.js': '' }));
    assert.equal(wrapper?.runner, 'node-script');
    assert.deepEqual(wrapper?.patterns, ['test/run.js']);
    const nodeTest = await detectTestRuns(input({ scripts: { test: 'node --test' } }));
    assert.equal(nodeTest?.runner, 'node-test');
    assert.ok(nodeTest?.patterns.includes('**/*.test.{js,cjs,mjs}'));
    const folder = await detectTestRuns(input({ scripts: { test: 'node --test tests/' } }));
    assert.ok(folder?.patterns.includes('tests/**/*.test.{js,cjs,mjs}'), folder?.patterns.join());
  });

  it('reads pytest testpaths and python_files from pytest.ini and pyproject.toml', async () => {
    const ini = await detectTestRuns(
      input(undefined, { 'pytest.ini': '[pytest]\ntestpaths =\n    tests/unit\npython_files = check_*.py\n' }, { isPython: true }),
    );
    assert.deepEqual(ini, { runner: 'pytest', command: 'pytest', patterns: ['tests/unit/**/check_*.py'], source: 'pytest.ini' });
    const toml = await detectTestRuns(
      input(undefined, {}, { isPython: true, pyproject: '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n' }),
    );
    assert.deepEqual(toml?.patterns, ['tests/**/test_*.py', 'tests/**/*_test.py']);
    assert.equal(toml?.source, 'pyproject.toml [tool.pytest.ini_options]');
  });

  it('gives nothing without a test command, and keeps going on a broken .mocharc', async () => {
    assert.equal(await detectTestRuns(input({ scripts: { test: 'echo "Error: no test specified" && exit 1' } })), undefined);
    assert.equal(await detectTestRuns(input({ scripts: { build: 'tsc' } })), undefined);
    const broken = await detectTestRuns(input({ scripts: { test: 'mocha' } }, { '.mocharc.json': '{ "spec": ' }));
    assert.equal(broken?.source, 'mocha defaults');
    // scripts that call each other, wrong types, shell substitutions: read, never run, never looped on
    assert.equal(await detectTestRuns(input({ scripts: { test: 'npm run a', a: 'npm run test' } })), undefined);
    assert.equal(await detectTestRuns(input({ scripts: { test: ['mocha'] } })), undefined);
    assert.equal(await detectTestRuns(input({ scripts: 'mocha' })), undefined);
    const odd = await detectTestRuns(
      input({ scripts: { test: 'jest $(rm -rf ~) `id`' }, jest: { testMatch: 'not-a-list', testRegex: 7 } }),
    );
    assert.deepEqual(odd && { runner: odd.runner, source: odd.source }, { runner: 'jest', source: 'jest defaults' });
    const badToml = await detectTestRuns(input(undefined, {}, { isPython: true, pyproject: '[tool.pytest.ini_options]\ntestpaths = [' }));
    assert.deepEqual(badToml && { runner: badToml.runner, source: badToml.source }, { runner: 'pytest', source: 'pytest defaults' });
  });
});

describe('the test file AMTP writes fits the project command', () => {
  const mocha = RENDERERS.mocha;
  it('keeps the usual place when the command runs it', () => {
    const place = testFilePlace(
      'lib/index.js',
      project({ runner: 'mocha', patterns: ['test/*.{js,cjs,mjs}'], source: 'mocha defaults' }),
      mocha,
    );
    assert.deepEqual(place, { path: 'test/sample-lib.amtp.test.js' });
  });

  it('names the file after the command glob (`*.spec.js` in spec/)', () => {
    const place = testFilePlace(
      'lib/index.js',
      project({ runner: 'mocha', patterns: ['spec/**/*.spec.js'], source: 'scripts.test' }),
      mocha,
    );
    assert.deepEqual(place, { path: 'spec/sample-lib.amtp.spec.js' });
  });

  it('moves the file into the jest testMatch folder', () => {
    const place = testFilePlace(
      'lib/index.js',
      project({ runner: 'jest', patterns: ['**/specs/**/*.check.js'], source: 'package.json jest.testMatch' }, { framework: 'jest' }),
      RENDERERS.jest,
    );
    assert.deepEqual(place, { path: 'specs/sample-lib.amtp.check.js' });
    const rootDir = testFilePlace(
      'lib/index.js',
      project({ runner: 'jest', patterns: ['<rootDir>/checks/**/*.check.js'], source: 'jest.config.js testMatch' }, { framework: 'jest' }),
      RENDERERS.jest,
    );
    assert.deepEqual(rootDir, { path: 'checks/sample-lib.amtp.check.js' });
    const regex = testFilePlace(
      'lib/index.js',
      project(
        { runner: 'jest', patterns: ['/__checks__/.*\\.test\\.js$/'], source: 'package.json jest.testRegex' },
        { framework: 'jest', test_dirs: ['__checks__'] },
      ),
      RENDERERS.jest,
    );
    assert.deepEqual(regex, { path: '__checks__/sample-lib.amtp.test.js' });
  });

  it('says why when the command names one file, and where pytest testpaths point', () => {
    const one = testFilePlace(
      'lib/index.js',
      project({ runner: 'mocha', command: 'mocha test/test.js', patterns: ['test/test.js'], source: 'scripts.test' }),
      mocha,
    );
    assert.equal(one.path, 'test/sample-lib.amtp.test.js');
    assert.match(one.note ?? '', /`mocha test\/test\.js` \(scripts\.test: test\/test\.js\) names its files/);
    const py = testFilePlace(
      'textkit/core.py',
      project(
        { runner: 'pytest', patterns: ['tests/unit/**/check_*.py'], source: 'pytest.ini' },
        { framework: 'pytest', test_dirs: ['tests'] },
        'python',
      ),
      RENDERERS.pytest,
    );
    assert.deepEqual(py, { path: 'tests/unit/check_core_amtp.py' });
  });

  it('keeps AMTP files out of the way of a runner it does not write for (ava, a node script)', () => {
    const ava = testFilePlace(
      'lib/index.js',
      project({ runner: 'ava', command: 'ava', patterns: ['test/**/*'], source: 'package.json ava.files' }),
      RENDERERS['node-test'],
    );
    assert.equal(ava.path, `${OWN_DIR}/sample-lib.amtp.test.js`);
    assert.match(ava.note ?? '', /starts ava, which does not run node-test tests/);
    const script = testFilePlace(
      'lib/index.js',
      project({ runner: 'node-script', command: 'node test/run.js', patterns: ['test/run.js'], source: 'scripts.test' }),
      RENDERERS['node-test'],
    );
    assert.equal(script.path, `${OWN_DIR}/sample-lib.amtp.test.js`);
    assert.match(script.note ?? '', /starts a script of its own/);
    const tap = testFilePlace(
      'lib/index.js',
      project({ runner: 'tap', command: 'tap', patterns: [], source: 'scripts.test' }),
      RENDERERS['node-test'],
    );
    assert.equal(tap.path, `${OWN_DIR}/sample-lib.amtp.test.js`, 'even with no patterns known, a foreign runner is kept away from');
  });

  it('writing for the runner the test command starts (ava, tap), AMTP puts its file where that runner looks', () => {
    const ava = testFilePlace(
      'lib/index.js',
      project({ runner: 'ava', command: 'ava', patterns: ['test/**/*'], source: 'package.json ava.files' }),
      RENDERERS.ava,
    );
    assert.equal(ava.note, undefined);
    assert.match(ava.path, /^test\//);
    const tap = testFilePlace(
      'lib/index.js',
      project({ runner: 'tap', command: 'tap', patterns: ['test/**/*.js'], source: 'scripts.test' }),
      RENDERERS['node-tap'],
    );
    assert.equal(tap.note, undefined);
    assert.match(tap.path, /^test\/.*\.js$/);
  });

  it('never picks a folder outside the workspace or a dot-folder from the test command', () => {
    for (const glob of ['/etc/cron.d/*.test.js', '../elsewhere/*.test.js', '.github/workflows/*.test.js', '.git/hooks/*']) {
      const place = testFilePlace('lib/index.js', project({ runner: 'mocha', patterns: [glob], source: 'scripts.test' }), mocha);
      assert.equal(place.path, 'test/sample-lib.amtp.test.js', glob);
      assert.match(place.note ?? '', /no new file name fits/, glob);
    }
    // a testRegex with a nested quantifier (exponential on some names) from a hostile package.json is not run, even one that would match
    const nested = testFilePlace(
      'lib/index.js',
      project(
        { runner: 'jest', patterns: ['/^test\\/([a-z.-]+)+\\.test\\.js$/'], source: 'package.json jest.testRegex' },
        { framework: 'jest' },
      ),
      RENDERERS.jest,
    );
    assert.match(nested.note ?? '', /no new file name fits/);
    assert.deepEqual(runDirs({ runner: 'mocha', patterns: ['/etc/*.js', '.github/*.js', 'spec/**/*.spec.js'], source: 'scripts.test' }), [
      'spec',
      OWN_DIR,
    ]);
  });
});
