// Runs the call-sequence search (or the replay of its kept sequences) for one Python module in one
// CPython child: the harness (server/src/frameworks/assets/amtp.char-harness.py, handing over to
// amtp_char_seqrun.py) under the sandbox rules of ../sandbox.ts (temporary HOME/TMPDIR/cwd,
// scrubbed env, own process group). The child bounds each sequence itself (SIGALRM) and the search
// by its count of tries (with a wall-clock safety stop it reports); this side kills the group when the
// child overruns that stop by more than a call's timeout, keeping the rows it printed.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assetFile } from '../../frameworks/assets';
import { confined } from '../../frameworks/run/confine';
import { childEnv } from '../../util/childEnv';
import { killChildTree } from '../../util/killTree';
import { LOAD_ALLOWANCE_MS, SANDBOX_VARS, type SandboxLimits } from '../sandbox';
import { importOf, memoryMb, projectPython } from './sandbox';
import type { PyRow, PySearchSpec, PySequence } from './sequence';

export interface SearchRun {
  rows: PyRow[];
  /** set when the module did not load */
  loadError?: string;
  /** the search's own count of sequences it could not pin: varying between runs (random draws), or unusable; `cut` when its safety clock stopped it */
  dropped?: { unstable: number; unusable: number; cut?: number; kills?: Record<string, string[]> };
  /** this side killed the child at the safety clock before it said it was done */
  killed?: boolean;
}

/** `work`: { search: spec } or { replay: sequences }. */
export async function runSequenceChild(
  modulePath: string,
  root: string,
  work: { search: PySearchSpec } | { replay: PySequence[] },
  limits: SandboxLimits,
  opts: { signal?: AbortSignal; python?: string; clockMs: number },
): Promise<SearchRun> {
  const home = mkdtempSync(join(tmpdir(), 'amtp-char-'));
  const token = `AMTP-CHAR-${randomUUID()}`;
  const { module, path } = importOf(modulePath, root);
  const job = {
    module,
    paths: [path],
    file: modulePath,
    root,
    bound: limits.bound,
    memoryMb: memoryMb(limits),
    callTimeoutMs: limits.callTimeoutMs,
  };
  writeFileSync(join(home, 'job.json'), JSON.stringify({ ...job, ...work, token }));
  const python = opts.python ?? projectPython(root);
  try {
    const c = confined(python, ['-I', '-B', assetFile('amtp.char-harness.py'), join(home, 'job.json')], SANDBOX_VARS);
    const child = spawn(c.command, c.args, {
      cwd: home,
      env: childEnv({ home, set: c.set }),
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return await collectRows(child, token, opts.clockMs + 2 * limits.callTimeoutMs, limits.loadMs ?? LOAD_ALLOWANCE_MS, opts.signal);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

function collectRows(
  child: ReturnType<typeof spawn>,
  token: string,
  deadlineMs: number,
  loadMs: number,
  signal?: AbortSignal,
): Promise<SearchRun> {
  const run: SearchRun = { rows: [] };
  return new Promise((resolve) => {
    let buffer = '';
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', finish);
      killChildTree(child);
      resolve(run);
    };
    const expire = () => {
      if (!run.dropped) run.killed = true; // the child never said it was done
      finish();
    };
    // The safety clock counts from the child's word that the module loaded, as the search's own clock
    // does; loading (Python's start on a busy machine, a slow import) gets its own allowance.
    let timer = setTimeout(expire, deadlineMs + loadMs);
    if (signal?.aborted) return finish();
    signal?.addEventListener('abort', finish, { once: true });
    child.stdout!.on('data', (d: Buffer) => {
      buffer += d.toString('utf8');
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (!line.startsWith(`${token} `)) continue;
        const row = JSON.parse(line.slice(token.length + 1)) as PyRow & { load?: string; name?: string; message?: string; done?: boolean };
        if (row.load === 'ok') {
          clearTimeout(timer);
          timer = setTimeout(expire, deadlineMs);
        } else if (row.load === 'failed') run.loadError = `${row.name}: ${row.message}`;
        else if (row.done) run.dropped = row as unknown as NonNullable<SearchRun['dropped']>;
        else run.rows.push(row);
      }
    });
    child.stderr!.resume();
    child.on('error', finish);
    child.on('close', finish);
  });
}
