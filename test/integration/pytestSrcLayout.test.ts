// A `src/` layout (test/fixtures/py-textkit moved under src/, the way setuptools and hatch lay a
// project out): after `amtp generate --yes` the project's own `python3 -m pytest`, with no
// PYTHONPATH and nothing installed, collects and passes AMTP's tests, whichever file holds the
// pytest config. AMTP writes a conftest.py beside its tests (server/src/frameworks/pytest/srcPath.ts);
// a folder's own conftest.py is never overwritten. Before, collection failed with
// "ModuleNotFoundError: No module named 'textkit'".
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pytest as pytestRenderer } from '../../server/src/frameworks/pytest/render';
import { srcConftest } from '../../server/src/frameworks/pytest/srcPath';
import { runCli } from '../helpers/cli';
import { requirePytest } from '../helpers/python';

const TEXTKIT = resolve(__dirname, '..', 'fixtures', 'py-textkit');

const CONFIGS: Record<string, [string, string]> = {
  'pyproject.toml [tool.pytest.ini_options]': [
    'pyproject.toml',
    '[project]\nname = "textkit"\nversion = "0.1.0"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
  ],
  'pytest.ini': ['pytest.ini', '[pytest]\ntestpaths = tests\n'],
  'setup.cfg [tool:pytest]': ['setup.cfg', '[metadata]\nname = textkit\n\n[tool:pytest]\ntestpaths = tests\n'],
  'tox.ini [pytest]': ['tox.ini', '[tox]\nenvlist = py3\n\n[pytest]\ntestpaths = tests\n'],
};

function srcLayout(config: [string, string], extra: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'amtp-srclayout-'));
  mkdirSync(join(dir, 'src'));
  cpSync(join(TEXTKIT, 'textkit'), join(dir, 'src', 'textkit'), { recursive: true });
  cpSync(join(TEXTKIT, 'README.md'), join(dir, 'README.md'));
  if (config[0] !== 'pyproject.toml') writeFileSync(join(dir, 'pyproject.toml'), '[project]\nname = "textkit"\nversion = "0.1.0"\n');
  writeFileSync(join(dir, config[0]), config[1]);
  for (const [p, text] of Object.entries(extra)) {
    mkdirSync(join(dir, p, '..'), { recursive: true });
    writeFileSync(join(dir, p), text);
  }
  return dir;
}

interface Summary {
  status: string;
  files: { path: string; action: string }[];
}

describe('pytest in a src/ layout', function () {
  this.timeout(240_000);
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  const pytest = (python: string, dir: string) =>
    spawnSync(python, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider'], {
      cwd: dir,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: dir },
    });

  for (const [name, config] of Object.entries(CONFIGS)) {
    it(`${name}: the written tests and a conftest.py collect and pass under the project's own python3 -m pytest`, async () => {
      const python = requirePytest();
      const dir = srcLayout(config);
      dirs.push(dir);
      // The verifier runs the tests too (without PYTHONPATH): once is enough to show it.
      const verify = name.startsWith('pyproject') ? [] : ['--no-verify'];
      const r = await runCli(['generate', dir, '--provider', 'offline', '--yes', '--json', '--no-characterize', ...verify]);
      assert.equal(r.code, 0, r.stderr);
      const s = JSON.parse(r.stdout) as Summary;
      const paths = s.files.filter((f) => f.action === 'created').map((f) => f.path);
      assert.ok(paths.includes('tests/conftest.py'), paths.join());
      assert.ok(
        paths.some((p) => /^tests\/test_\w+_amtp\.py$/.test(p)),
        paths.join(),
      );
      assert.match(
        readFileSync(join(dir, 'tests', 'conftest.py'), 'utf8'),
        /os\.path\.dirname\(os\.path\.abspath\(__file__\)\), '\.\.', 'src'/,
      );
      const t = pytest(python, dir);
      assert.equal(t.status, 0, `${t.stdout}\n${t.stderr}`);
      assert.match(t.stdout, /\d+ passed/);
      assert.doesNotMatch(t.stdout, /error/i);
    });
  }

  it('the run command carries PYTHONPATH=src only where no conftest is written', () => {
    const project = (config_files: string[]) => ({
      name: 'textkit',
      language: 'python' as const,
      module_system: 'python' as const,
      typescript: false,
      test_setup: { framework: 'pytest' as const, test_dirs: ['tests'], config_files },
    });
    const paths = ['tests/test_core_amtp.py'];
    assert.equal(pytestRenderer.runCommand(project([]), paths, ['src/textkit/core.py']), 'python3 -m pytest tests/test_core_amtp.py');
    assert.deepEqual(
      pytestRenderer.supportFiles!(project([]), paths, ['src/textkit/core.py']).map((f) => f.path),
      ['tests/conftest.py'],
    );
    assert.equal(
      pytestRenderer.runCommand(project(['tests/conftest.py']), paths, ['src/textkit/core.py']),
      'PYTHONPATH=src python3 -m pytest tests/test_core_amtp.py',
    );
    assert.deepEqual(pytestRenderer.supportFiles!(project(['tests/conftest.py']), paths, ['src/textkit/core.py']), []);
    assert.deepEqual(pytestRenderer.supportFiles!(project([]), paths, ['textkit/core.py']), [], 'not a src/ layout');
    assert.equal(srcConftest('tests/unit').content.includes("'..', '..', 'src'"), true);
    assert.equal(srcConftest('.').path, 'conftest.py');
  });

  it("a tests/conftest.py of the project's own is left as it is; the run command carries PYTHONPATH=src", async () => {
    const own = 'import sys, os\nsys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))\n';
    const dir = srcLayout(CONFIGS['pytest.ini'], { 'tests/conftest.py': own });
    dirs.push(dir);
    const r = await runCli(['generate', dir, '--provider', 'offline', '--yes', '--json', '--no-characterize', '--no-verify']);
    assert.equal(r.code, 0, r.stderr);
    const s = JSON.parse(r.stdout) as Summary;
    assert.ok(!s.files.some((f) => f.path.endsWith('conftest.py')), JSON.stringify(s.files));
    assert.equal(readFileSync(join(dir, 'tests', 'conftest.py'), 'utf8'), own);
    const t = pytest(requirePytest(), dir);
    assert.equal(t.status, 0, `${t.stdout}\n${t.stderr}`);
  });
});
