// How to run the written tests the way the user's terminal would: the project's own runner binary
// (looked up in node_modules from the workspace upwards), the options the engineer's run command
// carries (jest --config, --import tsx, NODE_OPTIONS, PYTHONPATH), and the coverage tool.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Framework } from '../core/frameworks';

export interface RunPlan {
  framework: Framework;
  binDir: string;
  args: string[];
  env: Record<string, string>;
  python?: string;
  /** why coverage cannot be measured (the filter is then skipped), if so */
  noCoverage?: string;
}

const RUNNER_BIN: Record<Exclude<Framework, 'node-test' | 'pytest'>, string> = {
  jest: 'jest/bin/jest.js',
  vitest: 'vitest/vitest.mjs',
  mocha: 'mocha/bin/mocha.js',
  ava: 'ava/entrypoints/cli.mjs',
  'node-tap': 'tap/dist/esm/run.mjs',
};

/** The nearest directory at or above `from` whose node_modules holds `rel`. */
export function findBinDir(from: string, rel: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules', rel))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

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

export function hasModule(python: string, module: string): boolean {
  return spawnSync(python, ['-I', '-c', `import ${module}`], { stdio: 'ignore', cwd: tmpdir() }).status === 0;
}

/** A plan, or the reason the tests cannot run here (then the verifier is skipped, nothing asked). */
export function planRun(framework: Framework, workspace: string, command: string, testFiles: string[]): RunPlan | { cannot: string } {
  const env: Record<string, string> = {};
  for (const m of command.matchAll(/(?:^|\s)([A-Z_][A-Z0-9_]*)=(\S+)/g)) env[m[1]] = m[2];
  const args: string[] = [];
  if (framework === 'pytest') {
    const python = pythonWithPytest(workspace);
    if (!python) return { cannot: "pytest is not installed for python3 (python3 -m pytest fails), nor in the project's .venv" };
    // Coverage needs nothing installed: coverage.py when present, else AMTP's tracer (server/src/coverage/python.ts).
    return { framework, binDir: workspace, args, env, python };
  }
  if (framework === 'node-test') {
    const tsx = /--import[= ]tsx\b/.test(command) || testFiles.some((f) => /\.(c|m)?ts$/.test(f));
    if (tsx) {
      if (!findBinDir(workspace, 'tsx/package.json')) return { cannot: 'the TypeScript tests need tsx, which is not installed' };
      args.push('--import', 'tsx');
    }
    return { framework, binDir: workspace, args, env };
  }
  const binDir = findBinDir(workspace, RUNNER_BIN[framework]);
  if (!binDir) return { cannot: `${framework} is not installed (no node_modules/${RUNNER_BIN[framework]} in the workspace or above)` };
  const config = /--config[= ](\S+)/.exec(command)?.[1];
  if (framework === 'jest' && config) args.push('--config', config.replace(/^['"]|['"]$/g, ''));
  if (framework === 'mocha' && /--node-option[= ]import=tsx\b/.test(command)) args.push('--node-option', 'import=tsx');
  // Coverage is Node's own V8 coverage or jest's built-in provider (server/src/coverage/measure.ts).
  return { framework, binDir, args, env };
}
