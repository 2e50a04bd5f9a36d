// Which python runs a project's Python: the verifier's pytest runs and the Python characterizer
// (server/src/characterize/python/sandbox.ts) both start the interpreter chosen here.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { childEnv, inTempHome } from '../../util/childEnv';

/**
 * The interpreter the person's own terminal would use: the project's virtualenv first, then
 * python3 on PATH, then the system one (Debian's python3-pytest installs there).
 * Nothing from the workspace runs before the person approves `tests.run`: a virtualenv's python is
 * a file the repository controls, so it is chosen by looking at its site-packages, never executed
 * here; other interpreters are probed in isolated mode (-I) from a neutral folder, so a `pytest.py`
 * in the workspace cannot be imported by the probe.
 */
export function pythonWithPytest(workspace: string): string | undefined {
  for (const venv of ['.venv', 'venv']) {
    const python = join(workspace, venv, 'bin/python');
    if (existsSync(python) && venvHas(join(workspace, venv), 'pytest')) return python;
  }
  return ['python3', 'python', '/usr/bin/python3'].find((p) => (!p.includes('/') || existsSync(p)) && hasModule(p, 'pytest'));
}

/** `module` installed in a virtualenv, judged from its files alone. */
function venvHas(venv: string, module: string): boolean {
  const lib = join(venv, 'lib');
  const versions = existsSync(lib) ? readdirSync(lib).filter((d) => /^python3(\.\d+)?$/.test(d)) : [];
  return versions.some((v) => existsSync(join(lib, v, 'site-packages', module)));
}

function hasModule(python: string, module: string): boolean {
  return inTempHome(
    (home) => spawnSync(python, ['-I', '-c', `import ${module}`], { stdio: 'ignore', cwd: home, env: childEnv({ home }) }).status === 0,
  );
}
