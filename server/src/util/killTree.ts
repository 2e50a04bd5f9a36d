// The one way AMTP stops a child process together with everything it started (test runners and their
// workers, characterization sandboxes, Python probes). On POSIX the child was spawned detached, so it
// leads a process group and the whole group gets SIGKILL; Windows has no process groups, so
// `taskkill /pid N /T /F` walks the tree instead. A tree that is already gone is success; any other
// failure is reported (stderr, which the LSP client shows in its output channel) and returned, never
// swallowed: a runner left alive keeps ports, files and CPU after the run.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childEnv } from './childEnv';

export type KillOutcome =
  { ok: true; /** the tree had already exited before the signal */ alreadyGone: boolean } | { ok: false; error: string };

export interface KillTreeOptions {
  /** defaults to the running platform; tests use it to reach the Windows branch */
  platform?: NodeJS.Platform;
  /** where a failure is reported; defaults to stderr */
  warn?: (line: string) => void;
  /**
   * The leader has already exited (a sweep for what it left running). Windows finds a tree only from
   * a live root, and the pid may already belong to an unrelated process, so there nothing is done.
   */
  leaderExited?: boolean;
}

/** taskkill's exit code when no process has that pid ("not found"). */
const TASKKILL_NOT_FOUND = 128;

const toStderr = (line: string): void => void process.stderr.write(line + '\n');

/** Kills `pid` and all its descendants; resolves once the kill was delivered (or found unnecessary). */
export async function killTree(pid: number | undefined, opts: KillTreeOptions = {}): Promise<KillOutcome> {
  const platform = opts.platform ?? process.platform;
  if (platform === 'win32' && opts.leaderExited) return { ok: true, alreadyGone: true };
  const outcome = await deliver(pid, platform);
  if (!outcome.ok) (opts.warn ?? toStderr)(`amtp: could not stop process tree ${String(pid)}: ${outcome.error}`);
  return outcome;
}

function deliver(pid: number | undefined, platform: NodeJS.Platform): Promise<KillOutcome> | KillOutcome {
  // A child that failed to spawn has no pid and nothing to stop.
  if (pid === undefined) return { ok: true, alreadyGone: true };
  // 0, 1 and negative numbers would signal our own group, init, or (-1) every process we may signal.
  if (!Number.isSafeInteger(pid) || pid <= 1) return { ok: false, error: `not a child pid: ${String(pid)}` };
  return platform === 'win32' ? taskkill(pid) : killGroup(pid);
}

function killGroup(pid: number): KillOutcome {
  try {
    process.kill(-pid, 'SIGKILL');
    return { ok: true, alreadyGone: false };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ESRCH') return { ok: true, alreadyGone: true };
    return { ok: false, error: `${code ?? 'error'}: ${(e as Error).message}` };
  }
}

function taskkill(pid: number): Promise<KillOutcome> {
  const home = mkdtempSync(join(tmpdir(), 'amtp-home-'));
  return new Promise<KillOutcome>((resolve) => {
    let output = '';
    const child = spawn('taskkill', ['/pid', String(pid), '/T', '/F'], {
      env: childEnv({ home }),
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const onData = (d: Buffer) => void (output += d.toString('utf8'));
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', (e) => resolve({ ok: false, error: `taskkill did not start: ${e.message}` }));
    child.on('close', (code) => {
      if (code === 0) resolve({ ok: true, alreadyGone: false });
      else if (code === TASKKILL_NOT_FOUND) resolve({ ok: true, alreadyGone: true });
      else resolve({ ok: false, error: `taskkill exited with ${String(code)}: ${output.trim()}` });
    });
  }).finally(() => rmSync(home, { recursive: true, force: true }));
}

/** Kills a started child's whole tree, whether or not the child itself has ended (the one call sites use). */
export function killChildTree(child: ChildProcess): void {
  void killTree(child.pid, { leaderExited: child.exitCode !== null || child.signalCode !== null });
}
