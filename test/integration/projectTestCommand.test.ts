// After `amtp generate --yes`, the project's own test command still passes, and runs AMTP's tests
// when its globs allow it (server/src/frameworks/layout.ts testFilePlace). Small projects: mocha
// with a spec glob, mocha naming one file, jest with a package.json testMatch, vitest with a config
// include, a node script wrapper, and pytest with testpaths. Runners come from this repo's
// node_modules (npm puts every ancestor's node_modules/.bin on PATH), so the fixtures live under it.
import { strict as assert } from 'node:assert';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CLI, runCli } from '../helpers/cli';
import { requirePytest } from '../helpers/python';
import { testsInFile } from '../../server/src/frameworks/caseMap';

const REPO = resolve(__dirname, '../..');
const WORK = join(REPO, 'test-output');
const SAMPLE = join(REPO, 'examples/sample-lib');
const PY_SAMPLE = join(REPO, 'test/fixtures/py-textkit');

interface Summary {
  status: string;
  files: { path: string; action: string }[];
  layoutNote?: string;
}

function project(name: string, pkg: Record<string, unknown>, extra: Record<string, string> = {}, from = SAMPLE): string {
  mkdirSync(WORK, { recursive: true });
  const dir = mkdtempSync(join(WORK, `cmd-${name}-`));
  cpSync(from, dir, { recursive: true });
  if (from === SAMPLE)
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'sample-lib', version: '1.0.0', main: 'src/index.js', license: 'MIT', ...pkg }, null, 2),
    );
  for (const [p, text] of Object.entries(extra)) {
    mkdirSync(join(dir, p, '..'), { recursive: true });
    writeFileSync(join(dir, p), text);
  }
  return dir;
}

async function generate(dir: string): Promise<Summary> {
  const r = await runCli(['generate', dir, '--provider', 'offline', '--yes', '--no-verify', '--json']);
  assert.equal(r.code, 0, `amtp generate exited ${r.code}: ${r.stderr}\n${r.stdout}`);
  return JSON.parse(r.stdout) as Summary;
}

function run(cmd: string, args: string[], cwd: string) {
  const r = spawnSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, npm_config_update_notifier: 'false', CI: '1', FORCE_COLOR: '0' },
  });
  return { status: r.status, out: `${r.stdout}\n${r.stderr}` };
}

const written = (s: Summary) => s.files.filter((f) => /amtp/.test(f.path) && f.action === 'created').map((f) => f.path);
/** The names of AMTP's tests (their case ids sit in comments, frameworks/caseMap.ts): what a verbose runner prints. */
const testNames = (dir: string, s: Summary) =>
  written(s).flatMap((p) =>
    testsInFile(p, readFileSync(join(dir, p), 'utf8'))
      .map((t) => (t.caseId ? t.name : undefined))
      .filter((n) => n !== undefined),
  );

describe("the project's own test command after a run", function () {
  this.timeout(300_000);
  const dirs: string[] = [];
  before(() => {
    if (!existsSync(CLI)) execFileSync(process.execPath, [join(REPO, 'esbuild.mjs')], { cwd: REPO });
  });
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('mocha with a spec glob: the file is named to fit and `npm test` runs it', async () => {
    const dir = project(
      'mocha-glob',
      { scripts: { test: "mocha 'spec/**/*.spec.js'" }, devDependencies: { mocha: '*' } },
      { 'spec/own.spec.js': "const assert = require('node:assert');\nit('own test', () => assert.ok(true));\n" },
    );
    dirs.push(dir);
    const s = await generate(dir);
    assert.deepEqual(written(s), ['spec/sample-lib.amtp.spec.js']);
    assert.equal(s.layoutNote, undefined);
    const t = run('npm', ['test', '--', '--reporter', 'spec'], dir);
    assert.equal(t.status, 0, t.out);
    const ids = testNames(dir, s);
    assert.ok(ids.length > 0 && ids.every((id) => t.out.includes(id)), `npm test did not run AMTP's tests:\n${t.out}`);
    assert.match(t.out, /own test/);
  });

  it('`mocha test/test.js` names one file: npm test still passes, and the summary says how to run AMTP tests', async () => {
    const dir = project(
      'mocha-one',
      { scripts: { test: 'mocha test/test.js' }, devDependencies: { mocha: '*' } },
      { 'test/test.js': "const assert = require('node:assert');\nit('own test', () => assert.ok(true));\n" },
    );
    dirs.push(dir);
    const s = await generate(dir);
    // the project's one test file is `*.js`, so AMTP's name follows that pattern (layout.ts testFileName)
    assert.deepEqual(written(s), ['test/sample-lib.amtp.js']);
    assert.match(s.layoutNote ?? '', /`mocha test\/test\.js` \(scripts\.test: test\/test\.js\) names its files/);
    const t = run('npm', ['test'], dir);
    assert.equal(t.status, 0, t.out);
    const command = /Run AMTP's tests with: (.+)$/.exec(s.layoutNote ?? '')?.[1];
    assert.ok(command?.includes('test/sample-lib.amtp.js'), s.layoutNote);
    const own = run('sh', ['-c', `PATH="${join(REPO, 'node_modules/.bin')}:$PATH" ${command}`], dir);
    assert.equal(own.status, 0, own.out);
    assert.ok(
      testNames(dir, s).every((id) => own.out.includes(id)),
      own.out,
    );
  });

  it('jest with a package.json testMatch: the file goes where testMatch looks and `npm test` runs it', async () => {
    const dir = project(
      'jest',
      { scripts: { test: 'jest --ci' }, devDependencies: { jest: '*' }, jest: { testMatch: ['**/checks/**/*.check.js'] } },
      { 'checks/own.check.js': "test('own test', () => expect(1).toBe(1));\n" },
    );
    dirs.push(dir);
    const s = await generate(dir);
    assert.deepEqual(written(s), ['checks/sample-lib.amtp.check.js']);
    const t = run('npm', ['test', '--', '--verbose'], dir);
    assert.equal(t.status, 0, t.out);
    assert.ok(
      testNames(dir, s).every((id) => t.out.includes(id)),
      t.out,
    );
    assert.match(t.out, /Tests:\s+\d+ passed, \d+ total/);
  });

  it('vitest with test.include in vitest.config.mjs: the file goes where include looks and `npm test` runs it', async () => {
    const config = "export default { test: { include: ['checks/**/*.spec.js'] } };\n";
    const dir = project(
      'vitest',
      { scripts: { test: 'vitest run' }, devDependencies: { vitest: '*' } },
      {
        'vitest.config.mjs': config,
        'checks/own.spec.js': "import { test, expect } from 'vitest';\ntest('own test', () => expect(1).toBe(1));\n",
      },
    );
    dirs.push(dir);
    const s = await generate(dir);
    assert.deepEqual(written(s), ['checks/sample-lib.amtp.spec.js']);
    const t = run('npm', ['test', '--', '--reporter', 'verbose'], dir);
    assert.equal(t.status, 0, t.out);
    assert.ok(
      testNames(dir, s).every((id) => t.out.includes(id)),
      t.out,
    );
    assert.match(t.out, /own test/);
  });

  it('a node script wrapper: AMTP files stay out of its folder, so `npm test` still passes', async () => {
    // The wrapper runs every file in test/ as its own kind of test: a file AMTP left there would break it.
    const wrapper =
      "const fs = require('node:fs');\nfor (const f of fs.readdirSync(__dirname)) if (f !== 'run.js') { const t = require('./' + f); if (typeof t.check !== 'function') { console.error('not a check file: ' + f); process.exit(1); } t.check(); }\nconsole.log('checks ok');\n";
    const dir = project(
      'wrapper',
      { scripts: { test: 'node test/run.js' } },
      { 'test/run.js': wrapper, 'test/own.js': 'exports.check = () => {};\n' },
    );
    dirs.push(dir);
    const s = await generate(dir);
    assert.ok(written(s).length > 0 && written(s).every((p) => p.startsWith('amtp-tests/')), written(s).join());
    assert.match(s.layoutNote ?? '', /`node test\/run\.js` \(scripts\.test: test\/run\.js\) starts a script of its own/);
    assert.match(s.layoutNote ?? '', /Run AMTP's tests with: node --test .*amtp-tests\//);
    const t = run('npm', ['test'], dir);
    assert.equal(t.status, 0, t.out);
    assert.match(t.out, /checks ok/);
  });

  it('pytest with testpaths and python_files: pytest runs AMTP tests', async () => {
    const py = requirePytest();
    const dir = project('pytest', {}, { 'pytest.ini': '[pytest]\ntestpaths = checks\npython_files = check_*.py\n' }, PY_SAMPLE);
    dirs.push(dir);
    const s = await generate(dir);
    assert.ok(written(s).length > 0 && written(s).every((p) => /^checks\/check_\w+_amtp\.py$/.test(p)), written(s).join());
    const t = run(py!, ['-m', 'pytest', '-v', '-p', 'no:cacheprovider'], dir);
    assert.equal(t.status, 0, t.out);
    assert.ok(
      testNames(dir, s).every((id) => t.out.includes(id)),
      t.out,
    );
  });
});
