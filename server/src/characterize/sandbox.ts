// Runs calls into one workspace module in a child Node process (the harness,
// server/src/frameworks/assets/amtp.char-harness.cjs) under the rules in docs/characterization.md:
// a temporary HOME and cwd, an env without secrets, no network but loopback (amtp.char-nonet.cjs),
// a heap limit, and a per-call timeout after which the whole process group is killed (as
// server/src/frameworks/runner.ts `exec` does) and the remaining calls go to a fresh child.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Tagged } from './values';

export interface SandboxCall {
  id: string;
  path: string[];
  args: Tagged[];
}

/** covered source: lines as "file:line", character spans as [file, start, end) */
export interface Coverage {
  lines: string[];
  spans: [string, number, number][];
}

export type CallResult =
  | ({ id: string; kind: 'return'; value: Tagged } & Coverage)
  | ({ id: string; kind: 'throw'; name: string; message: string } & Coverage)
  | ({ id: string; kind: 'unpinnable'; why: string } & Coverage)
  | { id: string; kind: 'timeout' }
  | { id: string; kind: 'crash'; detail: string };

export interface SandboxLimits {
  /** per call, in ms */
  callTimeoutMs: number;
  /** V8 old-space limit of the child, in MB */
  maxOldSpaceMb: number;
  /** how many value nodes a returned value may have before it is not pinned */
  bound: number;
}

export const DEFAULT_LIMITS: SandboxLimits = { callTimeoutMs: 2000, maxOldSpaceMb: 256, bound: 200 };

/** Names of env variables that are never passed to code AMTP runs (keys, tokens, passwords, cloud creds). */
const SECRET_NAME =
  /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH|SESSION|COOKIE|PRIVATE|^AWS_|^AZURE_|^GCP_|^GOOGLE_|^OPENAI|^ANTHROPIC|^NPM_CONFIG_|^GH_|^GITHUB_/i;
/** Only these survive at all: enough for node to run, nothing that identifies the user. */
const KEPT = ['PATH', 'LANG', 'LC_ALL', 'TZ', 'SYSTEMROOT'];

export function scrubbedEnv(source: NodeJS.ProcessEnv, home: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const k of KEPT) {
    const v = source[k];
    if (v !== undefined && !SECRET_NAME.test(k)) env[k] = v;
  }
  return { ...env, HOME: home, USERPROFILE: home, TMPDIR: home, TZ: 'UTC', FORCE_COLOR: '0', NO_COLOR: '1' };
}

function assetPath(name: string): string {
  // From source the assets sit in ../frameworks/assets; in the bundles esbuild.mjs copies them to dist/assets.
  const fromSource = join(__dirname, '..', 'frameworks', 'assets', name);
  return existsSync(fromSource) ? fromSource : join(__dirname, 'assets', name);
}

/** Runs every call (in order) and returns one result per call; never throws for what the module does. */
export async function runInSandbox(
  modulePath: string,
  root: string,
  calls: SandboxCall[],
  limits: SandboxLimits = DEFAULT_LIMITS,
  signal?: AbortSignal,
): Promise<CallResult[]> {
  const results: CallResult[] = [];
  let rest = calls;
  while (rest.length > 0 && !signal?.aborted) {
    const got = await oneChild(modulePath, root, rest, limits, signal);
    results.push(...got);
    rest = rest.slice(got.length);
  }
  return results;
}

/** One child for as many of `calls` as it gets through; a call that overruns is reported as a timeout and ends the child. */
async function oneChild(
  modulePath: string,
  root: string,
  calls: SandboxCall[],
  limits: SandboxLimits,
  signal?: AbortSignal,
): Promise<CallResult[]> {
  const home = mkdtempSync(join(tmpdir(), 'amtp-char-'));
  const token = `AMTP-CHAR-${randomUUID()}`;
  const jobFile = join(home, 'job.json');
  writeFileSync(jobFile, JSON.stringify({ module: modulePath, root, token, bound: limits.bound, calls }));
  const args = [
    `--max-old-space-size=${limits.maxOldSpaceMb}`,
    '--require',
    assetPath('amtp.char-nonet.cjs'),
    assetPath('amtp.char-harness.cjs'),
    jobFile,
  ];
  const results: CallResult[] = [];
  try {
    await new Promise<void>((resolve) => {
      const child = spawn(process.execPath, args, {
        cwd: home,
        env: scrubbedEnv(process.env, home),
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let buffer = '';
      let stderr = '';
      let timer: NodeJS.Timeout | undefined;
      let settled = false;
      const killGroup = () => {
        if (child.pid === undefined) return;
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          /* the group is already gone */
        }
      };
      const arm = () => {
        if (timer) clearTimeout(timer);
        // Loading the module counts against the first call's time as well.
        timer = setTimeout(
          () => {
            if (results.length < calls.length) results.push({ id: calls[results.length].id, kind: 'timeout' });
            finish();
          },
          limits.callTimeoutMs * (results.length === 0 ? 2 : 1),
        );
      };
      const finish = () => {
        if (settled) return;
        settled = true;
        if (timer) clearTimeout(timer);
        signal?.removeEventListener('abort', finish);
        killGroup();
        resolve();
      };
      signal?.addEventListener('abort', finish, { once: true });
      child.stdout.on('data', (d: Buffer) => {
        buffer += d.toString('utf8');
        let nl: number;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, nl);
          buffer = buffer.slice(nl + 1);
          if (!line.startsWith(token + ' ')) continue;
          const row = JSON.parse(line.slice(token.length + 1)) as Record<string, unknown>;
          if (row.load === 'failed') {
            for (const c of calls.slice(results.length))
              results.push({ id: c.id, kind: 'crash', detail: `the module did not load: ${String(row.name)}: ${String(row.message)}` });
            continue;
          }
          results.push(row as unknown as CallResult);
          arm();
        }
      });
      child.stderr.on('data', (d: Buffer) => {
        if (stderr.length < 64_000) stderr += d.toString('utf8');
      });
      child.on('error', (e) => {
        stderr += e.message;
      });
      child.on('close', (code) => {
        // A child that died mid-call (out of memory, process.exit in the module) takes that call with it.
        if (!settled && results.length < calls.length)
          results.push({ id: calls[results.length].id, kind: 'crash', detail: `exit ${code}: ${stderr.slice(-500)}` });
        finish();
      });
      arm();
    });
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  return results;
}
