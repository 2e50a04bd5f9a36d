// Runs calls into one workspace module in a child (the Python characterizer's, python/sandbox.ts)
// under the rules in docs/characterization.md: a temporary HOME and cwd, an env without secrets
// (util/childEnv.ts), no network but loopback (the confinement of frameworks/run/confine.ts), and a
// per-call timeout after which the whole process group is killed (as server/src/frameworks/runner.ts
// `exec` does) and the remaining calls go to a fresh child.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { confined } from '../frameworks/run/confine';
import { SANDBOX_VARS } from '../search/sandboxEnv';
import { childEnv } from '../util/childEnv';
import { killChildTree } from '../util/killTree';
import type { Tagged } from './values';

export { SANDBOX_VARS };

export interface SandboxCall {
  id: string;
  path: string[];
  args: Tagged[];
}

/**
 * covered source: lines as "file:line", character spans as [file, start, end) (Python: a line N is
 * the span [N, N + 1)); Python also reports line-to-line arcs ("file:from>to", negative for
 * entering and leaving a function, as coverage.py writes them), so taken branches count too.
 */
export interface Coverage {
  lines: string[];
  spans: [string, number, number][];
  arcs?: string[];
}

export type CallResult =
  | ({ id: string; kind: 'return'; value: Tagged } & Coverage)
  /** `iterated`: raised while the returned iterator was being consumed (Python generators) */
  | ({ id: string; kind: 'throw'; name: string; message: string; iterated?: boolean } & Coverage)
  /** `varies`: known to differ between runs (Python: it drew from the random module), counted as unstable */
  | ({ id: string; kind: 'unpinnable'; why: string; varies?: boolean } & Coverage)
  | { id: string; kind: 'timeout' }
  | { id: string; kind: 'crash'; detail: string };

export interface SandboxLimits {
  /** per call, in ms */
  callTimeoutMs: number;
  /** V8 old-space limit of the child, in MB */
  maxOldSpaceMb: number;
  /** how many value nodes a returned value may have before it is not pinned */
  bound: number;
  /** how long a child may take to start and load the module (LOAD_ALLOWANCE_MS when unset) */
  loadMs?: number;
}

export const DEFAULT_LIMITS: SandboxLimits = { callTimeoutMs: 2000, maxOldSpaceMb: 256, bound: 200 };

/** How to start one harness child, given the job file it reads. */
export interface ChildCommand {
  command: string;
  args: string[];
}

/** Hands the calls to fresh children until all have a result: a child that times out or crashes ends with the call it was on. */
export async function runInChildren(
  calls: SandboxCall[],
  signal: AbortSignal | undefined,
  oneChildFor: (rest: SandboxCall[]) => Promise<CallResult[]>,
): Promise<CallResult[]> {
  const results: CallResult[] = [];
  let rest = calls;
  while (rest.length > 0 && !signal?.aborted) {
    const got = await oneChildFor(rest);
    if (got.length === 0) break; // aborted before the child reported anything
    results.push(...got);
    rest = rest.slice(got.length);
  }
  return results;
}

/**
 * One child for as many of `calls` as it gets through, in a fresh temporary HOME and cwd that is
 * removed afterwards. The job file holds `job` plus the calls and the token that marks result lines.
 */
export async function oneChild(
  start: (jobFile: string) => ChildCommand,
  job: Record<string, unknown>,
  calls: SandboxCall[],
  limits: SandboxLimits,
  signal?: AbortSignal,
): Promise<CallResult[]> {
  const home = mkdtempSync(join(tmpdir(), 'amtp-char-'));
  const token = `AMTP-CHAR-${randomUUID()}`;
  const jobFile = join(home, 'job.json');
  writeFileSync(jobFile, JSON.stringify({ ...job, token, calls }));
  const harness = start(jobFile);
  const c = confined(harness.command, harness.args, SANDBOX_VARS);
  try {
    const child = spawn(c.command, c.args, {
      cwd: home,
      env: childEnv({ home, set: c.set }),
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return await collect(child, token, calls, limits, signal);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** A result line is "<token> <json>"; anything else the module printed is ignored. */
function resultRow(line: string, token: string): Record<string, unknown> | undefined {
  if (!line.startsWith(token + ' ')) return undefined;
  return JSON.parse(line.slice(token.length + 1)) as Record<string, unknown>;
}

/** Calls `fn` with each complete line the stream writes. */
function eachLine(stream: NodeJS.ReadableStream, fn: (line: string) => void): void {
  let buffer = '';
  stream.on('data', (d: Buffer) => {
    buffer += d.toString('utf8');
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      fn(line);
    }
  });
}

/** How long a child may take to start and load the module before its first call's timer starts. */
export const LOAD_ALLOWANCE_MS = 20_000;

/** Every call without a result crashed with `detail` (the module did not load). */
function crashAll(results: CallResult[], calls: SandboxCall[], detail: string): void {
  for (const c of calls.slice(results.length)) results.push({ id: c.id, kind: 'crash', detail });
}

/** The timer ran out: while loading, every call goes with the module; else the call it was on is a timeout. */
function expired(results: CallResult[], calls: SandboxCall[], loaded: boolean, limits: SandboxLimits): void {
  if (!loaded) crashAll(results, calls, `the module did not finish loading within ${(limits.loadMs ?? LOAD_ALLOWANCE_MS) / 1000} s`);
  else if (results.length < calls.length) results.push({ id: calls[results.length].id, kind: 'timeout' });
}

/** Reads the child's result lines, one per call, arming the per-call timer after each; resolves when the child is done or killed.
 * The per-call timer starts when the child says the module loaded (starting the interpreter on a busy
 * machine took longer than a call may); loading has its own allowance, and a module that does not finish
 * loading within it takes every call with it, as one that fails to load does.
 */
function collect(
  child: ChildProcess,
  token: string,
  calls: SandboxCall[],
  limits: SandboxLimits,
  signal?: AbortSignal,
): Promise<CallResult[]> {
  const results: CallResult[] = [];
  return new Promise((resolve) => {
    let stderr = '';
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      signal?.removeEventListener('abort', finish);
      killChildTree(child);
      resolve(results);
    };
    let loaded = false;
    const arm = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(
        () => {
          expired(results, calls, loaded, limits);
          finish();
        },
        loaded ? limits.callTimeoutMs : (limits.loadMs ?? LOAD_ALLOWANCE_MS),
      );
    };
    const take = (row: Record<string, unknown>) => {
      if (row.load === 'ok') {
        loaded = true;
        return arm();
      }
      if (row.load === 'failed') return crashAll(results, calls, `the module did not load: ${String(row.name)}: ${String(row.message)}`);
      results.push(row as unknown as CallResult);
      arm();
    };
    if (signal?.aborted) return finish();
    signal?.addEventListener('abort', finish, { once: true });
    eachLine(child.stdout!, (line) => {
      const row = resultRow(line, token);
      if (row) take(row);
    });
    child.stderr!.on('data', (d: Buffer) => {
      if (stderr.length < 64_000) stderr += d.toString('utf8');
    });
    child.on('error', (e) => (stderr += e.message));
    child.on('close', (code) => {
      // A child that died mid-call (out of memory, an exit in the module) takes that call with it.
      if (!settled && results.length < calls.length)
        results.push({ id: calls[results.length].id, kind: 'crash', detail: `exit ${code}: ${stderr.slice(-500)}` });
      finish();
    });
    arm();
  });
}
