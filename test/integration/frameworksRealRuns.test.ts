// End to end through the CLI: real npm packages (vendored: test/helpers/npmPack.ts) and two fixtures → offline pipeline → the
// written test files run under the real runners from this repo's node_modules. --no-verify: this
// checks the renderers' output as written; the verifier's filtering is tested in verifier*.test.ts.
import { strict as assert } from 'node:assert';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runTests } from '../../server/src/frameworks/runner';
import type { Framework } from '../../server/src/core/frameworks';
import { unpackNpmPackage } from '../helpers/npmPack';
import { requirePytest } from '../helpers/python';

const REPO = resolve(__dirname, '../..');
const CLI = join(REPO, 'dist/cli.js');
// Under the repo so the written tests resolve 'vitest' and '@jest/globals' like in a real project.
const WORK = join(REPO, 'test-output');

interface CliResult {
  status: string;
  files: { path: string; action: string }[];
  cases: { id: string }[];
}

function generate(dir: string, framework: string): CliResult {
  const r = spawnSync(
    process.execPath,
    [CLI, 'generate', dir, '--provider', 'offline', '--framework', framework, '--depth', 'deep', '--yes', '--no-verify', '--json'],
    { encoding: 'utf8', timeout: 120_000 },
  );
  assert.equal(r.status, 0, `amtp generate exited ${r.status}: ${r.stderr}\n${r.stdout}`);
  return JSON.parse(r.stdout) as CliResult;
}

function workspaceCopy(src: string, name: string): string {
  mkdirSync(WORK, { recursive: true });
  const dir = mkdtempSync(join(WORK, `fw-${name}-`));
  cpSync(src, dir, { recursive: true });
  return dir;
}

const testFiles = (r: CliResult) => r.files.map((f) => f.path).filter((p) => /(\.test\.|test_)/.test(p));

describe('frameworks: generated tests run under the real runners', function () {
  this.timeout(300_000);
  const dirs: string[] = [];

  before(() => {
    if (!existsSync(CLI)) execFileSync(process.execPath, [join(REPO, 'esbuild.mjs')], { cwd: REPO });
  });
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  const PACKAGES = ['ms@2.1.3', 'bytes@3.1.2', 'slugify@1.6.6'];
  const FRAMEWORKS: Framework[] = ['jest', 'vitest', 'mocha', 'node-test', 'ava', 'node-tap'];
  for (const spec of PACKAGES) {
    for (const fw of FRAMEWORKS) {
      it(`${spec} × ${fw}: ≥95% of the written tests pass`, async () => {
        const dir = workspaceCopy(await unpackNpmPackage(spec), spec.split('@')[0]);
        dirs.push(dir);
        const result = generate(dir, fw);
        assert.equal(result.status, 'completed');
        const files = testFiles(result);
        assert.ok(files.length >= 1, 'at least one test file written');
        const run = await runTests(fw, dir, files, { binDir: REPO });
        assert.ok(run.total >= 1, `no tests ran:\n${run.output.slice(-3000)}`);
        assert.ok(run.passed / run.total >= 0.95, `${run.passed}/${run.total} passed:\n${run.output.slice(-3000)}`);
      });
    }
  }

  it('a vitest-configured project gets vitest files, never jest ones (auto)', async () => {
    const dir = workspaceCopy(await unpackNpmPackage('ms@2.1.3'), 'ms-vitest');
    dirs.push(dir);
    writeFileSync(join(dir, 'vitest.config.mjs'), 'export default { test: {} };\n');
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    pkg.devDependencies = { vitest: '^3.2.0' };
    pkg.scripts = { test: 'vitest run' };
    writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
    const result = generate(dir, 'auto');
    const files = testFiles(result);
    assert.ok(files.length >= 1);
    for (const f of files) {
      const text = readFileSync(join(dir, f), 'utf8') as string;
      assert.match(text, /from 'vitest'/);
      assert.doesNotMatch(text, /@jest\/globals|require\(/);
    }
    const run = await runTests('vitest', dir, files, { binDir: REPO });
    assert.ok(run.total >= 1 && run.passed === run.total, run.output.slice(-2000));
  });

  for (const fw of ['vitest', 'jest'] as const) {
    it(`TypeScript ESM fixture × ${fw}: files type-check and pass`, async () => {
      const dir = workspaceCopy(join(REPO, 'test/fixtures/ts-esm-units'), `ts-${fw}`);
      dirs.push(dir);
      const result = generate(dir, fw);
      const files = testFiles(result);
      assert.ok(files.length >= 1 && files.every((f) => f.endsWith('.ts')), files.join(','));
      // Type-check the generated tests together with the sources, as the user's tsc would.
      writeFileSync(
        join(dir, 'tsconfig.amtp-check.json'),
        JSON.stringify({
          extends: './tsconfig.json',
          compilerOptions: { noEmit: true, types: [], rootDir: '.' },
          include: ['src', ...files],
        }),
      );
      const tsc = spawnSync(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.amtp-check.json'], {
        cwd: dir,
        encoding: 'utf8',
      });
      assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
      const config = result.files.find((f) => f.path.endsWith('amtp.jest.config.cjs'));
      const run = await runTests(fw, dir, files, { binDir: REPO, args: config ? ['--config', config.path] : [] });
      assert.ok(run.total >= 1 && run.passed / run.total >= 0.95, `${run.passed}/${run.total}\n${run.output.slice(-3000)}`);
    });
  }

  it('Python fixture × pytest: doctest-derived tests pass', async function () {
    const python = requirePytest();
    const dir = workspaceCopy(join(REPO, 'test/fixtures/py-textkit'), 'py');
    dirs.push(dir);
    const result = generate(dir, 'auto');
    const files = testFiles(result);
    assert.ok(files.length >= 1 && files.every((f) => f.endsWith('.py')), files.join(','));
    const run = await runTests('pytest', dir, files, { binDir: REPO, python });
    assert.ok(run.total >= 1 && run.passed / run.total >= 0.95, `${run.passed}/${run.total}\n${run.output.slice(-3000)}`);
  });
});
