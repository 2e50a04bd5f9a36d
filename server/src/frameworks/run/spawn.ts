// Spawns a test runner as the leader of its own process group (detached) and kills the whole group on
// timeout, cancellation or exit, so a hanging test or a worker it started never outlives the run.
// Output (stdout and stderr interleaved) is capped at MAX_OUTPUT.
import { spawn } from 'node:child_process';

export interface Proc {
  output: string;
  code: number | null;
  timedOut: boolean;
  cancelled: boolean;
  pid?: number;
}

export const MAX_OUTPUT = 8 * 1024 * 1024;

/** Spawns `cmd` as the leader of a new process group; on timeout or abort the whole group gets SIGKILL. */
export function exec(
  cmd: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
  timeout: number,
  signal?: AbortSignal,
  onSpawn?: (pid: number) => void,
): Promise<Proc> {
  return new Promise((resolve) => {
    let output = '';
    let timedOut = false;
    let cancelled = false;
    const child = spawn(cmd, args, {
      cwd,
      env: { ...process.env, ...env, FORCE_COLOR: '0', NO_COLOR: '1' },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is already gone
      }
    };
    const onData = (d: Buffer) => {
      if (output.length < MAX_OUTPUT) output += d.toString('utf8');
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    if (child.pid !== undefined) onSpawn?.(child.pid);
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeout);
    const onAbort = () => {
      cancelled = true;
      killGroup();
    };
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    const done = (code: number | null) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      // Whatever the tests left running in the group (servers, watchers) goes with the run.
      killGroup();
      resolve({ output, code, timedOut, cancelled, pid: child.pid });
    };
    child.on('error', (e) => {
      output += `\n${e.message}`;
      done(null);
    });
    child.on('close', (code) => done(code));
  });
}
