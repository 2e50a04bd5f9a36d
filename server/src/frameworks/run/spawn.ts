// Spawns a test runner as the leader of its own process group (detached) and kills the whole tree on
// timeout, cancellation or exit (util/killTree.ts, Windows included), so a hanging test or a worker it started never outlives the run.
// Output (stdout and stderr interleaved) is capped at MAX_OUTPUT. The runner gets no secret and a
// temporary HOME (util/childEnv.ts), and no network but loopback (confine.ts).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childEnv } from '../../util/childEnv';
import { killTree } from '../../util/killTree';
import { confined } from './confine';

export interface Proc {
  output: string;
  code: number | null;
  timedOut: boolean;
  cancelled: boolean;
  pid?: number;
}

const MAX_OUTPUT = 8 * 1024 * 1024;

/**
 * Spawns `cmd` as the leader of a new process group; on timeout or abort the whole tree is killed.
 * `env` holds only what AMTP sets for this run (coverage, the test command's NAME=value pairs).
 */
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
    const home = mkdtempSync(join(tmpdir(), 'amtp-home-'));
    const c = confined(cmd, args, { ...env, FORCE_COLOR: '0', NO_COLOR: '1' });
    const child = spawn(c.command, c.args, {
      cwd,
      env: childEnv({ home, set: c.set }),
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const killGroup = (leaderExited = false) => void killTree(child.pid, { leaderExited });
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
      if (child.pid !== undefined) killGroup(true);
      rmSync(home, { recursive: true, force: true });
      resolve({ output, code, timedOut, cancelled, pid: child.pid });
    };
    child.on('error', (e) => {
      output += `\n${e.message}`;
      done(null);
    });
    child.on('close', (code) => done(code));
  });
}
