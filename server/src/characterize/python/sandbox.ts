// Runs calls into one Python module in a CPython child (the harness,
// server/src/frameworks/assets/amtp.char-harness.py) under the same rules as the Node sandbox
// (../sandbox.ts: temporary HOME/TMPDIR/cwd, scrubbed env, own process group killed at the per-call
// timeout, the remaining calls in a fresh child). The harness itself caps the address space and
// refuses network access to anything but loopback before it imports the module.
import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { assetFile } from '../../frameworks/assets';
import { pythonModule } from '../../frameworks/pytest/render';
import { pythonWithPytest } from '../../frameworks/run/python';
import { oneChild, runInChildren, DEFAULT_LIMITS, type CallResult, type SandboxCall, type SandboxLimits } from '../sandbox';

/**
 * The interpreter the project's code runs with: its virtualenv (where its dependencies are), else the
 * python3 the verifier would run pytest with (server/src/frameworks/run/python.ts), else python3.
 */
export function projectPython(root: string): string {
  for (const venv of ['.venv', 'venv']) {
    const python = join(root, venv, 'bin', 'python');
    if (existsSync(python)) return python;
  }
  return pythonWithPytest(root) ?? 'python3';
}

/** How the module is imported: its dotted name and the sys.path entry it is found from (root, or root/src). */
export function importOf(modulePath: string, root: string): { module: string; path: string } {
  const rel = relative(root, modulePath).split(sep).join('/');
  return { module: pythonModule(rel, undefined), path: rel.startsWith('src/') ? join(root, 'src') : root };
}

/**
 * Address-space cap of the child: twice the Node heap limit, since RLIMIT_AS also counts the
 * interpreter, its shared libraries and thread stacks (512 MB by default).
 */
export function memoryMb(limits: SandboxLimits): number {
  return limits.maxOldSpaceMb * 2;
}

/** Runs every call (in order) and returns one result per call; never throws for what the module does. */
export async function runInPythonSandbox(
  modulePath: string,
  root: string,
  calls: SandboxCall[],
  limits: SandboxLimits = DEFAULT_LIMITS,
  opts: { signal?: AbortSignal; python?: string } = {},
): Promise<CallResult[]> {
  const python = opts.python ?? projectPython(root);
  const { module, path } = importOf(modulePath, root);
  const job = { module, paths: [path], file: modulePath, root, bound: limits.bound, memoryMb: memoryMb(limits) };
  // -I: no user site-packages, no PYTHON* variables, no script folder on sys.path; -B: no .pyc files written into the project
  const start = (jobFile: string) => ({ command: python, args: ['-I', '-B', assetFile('amtp.char-harness.py'), jobFile] });
  return runInChildren(calls, opts.signal, (rest) => oneChild(start, job, rest, limits, opts.signal));
}
