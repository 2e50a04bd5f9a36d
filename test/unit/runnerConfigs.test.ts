// Where each runner looks, read from its own config without running it (server/src/agents/crawler/
// runnerConfigs.ts, staticConfig.ts), and the test file AMTP places there (frameworks/layout.ts):
// jest roots / testMatch / testRegex / projects / testPathIgnorePatterns (JS, TS, JSON and
// package.json configs), vitest include / dir / root, mocha .mocharc.js spec, ava.config.js files,
// pytest in tox.ini and setup.cfg. A config that computes a setting is reported, never run.
import { strict as assert } from 'node:assert';
import type { TestRuns } from '../../server/src/contracts/types';
import { detectTestRuns, type TestRunsInput } from '../../server/src/agents/crawler/testRuns';
import { RENDERERS } from '../../server/src/frameworks';
import { collects, testFilePlace } from '../../server/src/frameworks/layout';
import type { Project } from '../../server/src/frameworks/types';

function input(pkg: Record<string, unknown> | undefined, files: Record<string, string> = {}, isPython = false): TestRunsInput {
  const all: Record<string, string> = { 'src/array.ts': '', ...files };
  return { pkg, files: new Set(Object.keys(all)), read: async (p) => all[p], isPython };
}

function project(runs: TestRuns, framework: Project['test_setup']['framework'], testDirs: string[] = []): Project {
  return {
    name: 'utils',
    language: 'typescript',
    module_system: 'cjs',
    typescript: true,
    test_setup: { framework, test_dirs: testDirs, config_files: [], runs },
  };
}

const jestPkg = { scripts: { test: 'jest' } };

describe('runner configs: where the runner looks, read without running the config', () => {
  it("the issue's case: jest roots ['<rootDir>/src'] keep jest out of test/, so AMTP writes under src/", async () => {
    const runs = (await detectTestRuns(
      input(jestPkg, { 'jest.config.js': "module.exports = { preset: 'ts-jest', roots: ['<rootDir>/src'] };\n" }),
    ))!;
    assert.deepEqual(runs.roots, ['src']);
    assert.equal(runs.source, 'jest.config.js roots');
    assert.equal(collects(runs, 'test/array.amtp.test.ts'), false, 'jest never looks in test/');
    const place = testFilePlace('src/array.ts', project(runs, 'jest', ['test']), RENDERERS.jest);
    assert.deepEqual(place, { path: 'src/__tests__/array.amtp.test.ts' });
    assert.ok(collects(runs, place.path));
  });

  it('jest testMatch and testRegex with a rootDir, testPathIgnorePatterns, and a JSON config', async () => {
    const ts = (await detectTestRuns(
      input(jestPkg, {
        'jest.config.ts':
          "import type { Config } from 'jest';\nconst config: Config = { rootDir: 'lib', testMatch: ['<rootDir>/**/*.check.ts'], testPathIgnorePatterns: ['<rootDir>/fixtures/'] };\nexport default config;\n",
      }),
    ))!;
    assert.deepEqual(
      { patterns: ts.patterns, roots: ts.roots, ignore: ts.ignore, source: ts.source },
      { patterns: ['lib/**/*.check.ts'], roots: ['lib'], ignore: ['//lib/fixtures//'], source: 'jest.config.ts testMatch' },
    );
    assert.equal(collects(ts, 'lib/a.check.ts'), true);
    assert.equal(collects(ts, 'lib/fixtures/a.check.ts'), false);
    const json = (await detectTestRuns(input(jestPkg, { 'jest.config.json': '{"testRegex": "(/checks/.*)\\\\.js$"}' })))!;
    assert.deepEqual(json.patterns, ['/(/checks/.*)\\.js$/']);
    assert.equal(json.source, 'jest.config.json testRegex');
    const named = (await detectTestRuns(
      input(
        { scripts: { test: 'jest --config config/jest.unit.js' } },
        { 'config/jest.unit.js': "module.exports = { roots: ['<rootDir>/src'] };" },
      ),
    ))!;
    assert.deepEqual(named.roots, ['src'], 'the --config the test command names');
  });

  it('jest projects: a file runs when one inline project takes it; a project naming another config is reported', async () => {
    const runs = (await detectTestRuns(
      input({
        scripts: { test: 'jest' },
        jest: { projects: [{ displayName: 'unit', roots: ['<rootDir>/src'], testMatch: ['**/*.unit.ts'] }, 'packages/*'] },
      }),
    ))!;
    assert.deepEqual(runs.projects, [{ name: 'unit', patterns: ['**/*.unit.ts'], roots: ['src'] }]);
    assert.match(runs.unread ?? '', /projects packages\/\* name other configs/);
    assert.equal(collects(runs, 'src/a.unit.ts'), true);
    assert.equal(collects(runs, 'test/a.unit.ts'), false);
    const place = testFilePlace('src/array.ts', project(runs, 'jest'), RENDERERS.jest);
    assert.equal(place.path, 'src/__tests__/array.amtp.unit.ts');
    assert.match(place.unread ?? '', /packages\/\*/);
  });

  it('a computed setting is named, and the runner defaults stand in for it', async () => {
    const runs = (await detectTestRuns(
      input(jestPkg, { 'jest.config.js': "const path = require('path');\nmodule.exports = { roots: [path.join(__dirname, 'src')] };\n" }),
    ))!;
    assert.equal(runs.source, 'jest defaults');
    assert.match(runs.unread ?? '', /^jest\.config\.js: roots\[0\] is computed; AMTP does not run configs/);
    const fn = (await detectTestRuns(input(jestPkg, { 'jest.config.js': 'module.exports = makeConfig();\n' })))!;
    assert.match(fn.unread ?? '', /builds its config at run time/);
  });

  it('vitest include under root and dir, exclude, inline projects', async () => {
    const runs = (await detectTestRuns(
      input(
        { scripts: { test: 'vitest run' } },
        {
          'vitest.config.ts':
            "import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { dir: 'src', include: ['**/*.spec.ts'], exclude: ['**/legacy/**'] } });\n",
        },
      ),
    ))!;
    assert.deepEqual(
      { patterns: runs.patterns, roots: runs.roots, ignore: runs.ignore },
      { patterns: ['**/*.spec.ts'], roots: ['src'], ignore: ['**/legacy/**'] },
    );
    assert.equal(collects(runs, 'test/a.spec.ts'), false);
    assert.equal(collects(runs, 'src/legacy/a.spec.ts'), false);
    assert.equal(
      testFilePlace('src/array.ts', project(runs, 'vitest', ['test']), RENDERERS.vitest).path,
      'src/__tests__/array.amtp.spec.ts',
    );
    const projects = (await detectTestRuns(
      input(
        { scripts: { test: 'vitest' } },
        {
          'vitest.config.mjs': "export default { test: { projects: [{ test: { name: 'node', include: ['tests/node/**/*.test.ts'] } }] } };",
        },
      ),
    ))!;
    assert.deepEqual(projects.projects, [{ name: 'node', patterns: ['tests/node/**/*.test.ts'] }]);
  });

  it('mocha .mocharc.cjs spec and ava.config.js files, read as data', async () => {
    const mocha = await detectTestRuns(
      input(
        { scripts: { test: 'mocha' } },
        { '.mocharc.cjs': "module.exports = { require: 'ts-node/register', spec: ['spec/**/*.spec.ts'] };" },
      ),
    );
    assert.deepEqual(mocha && { patterns: mocha.patterns, source: mocha.source }, {
      patterns: ['spec/**/*.spec.ts'],
      source: '.mocharc.cjs spec',
    });
    const ava = await detectTestRuns(
      input({ scripts: { test: 'ava' } }, { 'ava.config.js': "export default { files: ['checks/**/*.js', '!checks/helpers/**'] };" }),
    );
    assert.deepEqual(ava && { patterns: ava.patterns, source: ava.source }, {
      patterns: ['checks/**/*.js'],
      source: 'ava.config.js files',
    });
  });

  it('pytest settings in tox.ini and setup.cfg', async () => {
    const tox = await detectTestRuns(input(undefined, { 'tox.ini': '[tox]\nenvlist = py3\n[pytest]\ntestpaths = checks\n' }, true));
    assert.deepEqual(tox && { patterns: tox.patterns, source: tox.source }, {
      patterns: ['checks/**/test_*.py', 'checks/**/*_test.py'],
      source: 'tox.ini [pytest]',
    });
    const cfg = await detectTestRuns(
      input(undefined, { 'setup.cfg': '[metadata]\nname = x\n[tool:pytest]\npython_files = check_*.py\n' }, true),
    );
    assert.deepEqual(cfg && { runner: cfg.runner, patterns: cfg.patterns, source: cfg.source }, {
      runner: 'pytest',
      patterns: ['**/check_*.py'],
      source: 'setup.cfg [tool:pytest]',
    });
  });
});
