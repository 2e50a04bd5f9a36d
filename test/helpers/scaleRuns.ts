// Runs and workers for the scale tests: git workspaces (a queue's jobs name their commit), `amtp
// worker` child processes that are always stopped, and a run's artifacts and files read back for
// comparison.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { PostgresStore } from '../../server/src/store/postgres';
import { CLI } from './cli';
import { makeBigAddWorkspace } from './scriptedModel';

/** The adder with `extra` documented functions, committed to a fresh git repository. */
export async function gitWorkspace(extra: number): Promise<string> {
  const ws = await makeBigAddWorkspace(extra, 'amtp-scale-');
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=t@amtp.test', '-c', 'user.name=t', ...args], { cwd: ws, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'fixture');
  return ws;
}

export function headOf(ws: string): string {
  return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ws, encoding: 'utf8' }).trim();
}

/** The environment of a CLI child: no model key or endpoint of the developer's, plus `env`. */
export function cliEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    OPENAI_API_KEY: undefined,
    OPENAI_BASE_URL: undefined,
    AMTP_PROVIDER: undefined,
    AMTP_STORE: undefined,
    AMTP_QUEUE: undefined,
    AMTP_CACHE: undefined,
    ...env,
  };
}

export interface WorkerProcess {
  child: ChildProcess;
  log: () => string;
  /** resolves once the worker said it listens */
  ready: Promise<void>;
}

/** Every worker a test started, stopped (SIGKILL) by `stopWorkers` even when the test failed. */
const started: ChildProcess[] = [];

export function startWorker(ws: string, env: Record<string, string | undefined>, args: string[] = []): WorkerProcess {
  const child = spawn(process.execPath, [CLI, 'worker', ws, ...args], { env: cliEnv(env), stdio: ['ignore', 'ignore', 'pipe'] });
  started.push(child);
  let log = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      log += d.toString();
      if (/listening for jobs/.test(log)) resolve();
    });
    child.on('exit', (code) => reject(new Error(`worker exited ${code} before it listened: ${log}`)));
  });
  ready.catch(() => undefined);
  return { child, log: () => log, ready };
}

export async function stopWorkers(): Promise<void> {
  for (const c of started.splice(0)) {
    if (c.exitCode === null && c.signalCode === null) {
      const exited = new Promise((r) => c.once('exit', r));
      c.kill('SIGKILL');
      await exited;
    }
  }
}

/** A run's artifacts in the order the run record names them (each agent's static map, batches, result), as kind and content bytes. */
export async function runArtifacts(storeUrl: string, ws: string, runId: string): Promise<{ kind: string; content: string }[]> {
  const store = new PostgresStore(ws, storeUrl);
  try {
    const run = (await store.getRun(runId))!;
    const ids = run.activities.flatMap((a) => [
      ...(a.sourceArtifactId ? [a.sourceArtifactId] : []),
      ...(a.batches ?? []).filter((b) => b.artifactId).map((b) => b.artifactId!),
      ...(a.artifactId ? [a.artifactId] : []),
    ]);
    const out: { kind: string; content: string }[] = [];
    for (const id of ids) {
      const { artifact, contentText } = await store.loadArtifact(runId, id);
      out.push({ kind: artifact.kind, content: contentText });
    }
    return out;
  } finally {
    await store.close();
  }
}

/** Every file the run wrote, relative path to bytes (text). */
export async function writtenFiles(ws: string, files: { path: string; action: string }[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const f of files.filter((x) => x.action === 'created').sort((a, b) => a.path.localeCompare(b.path)))
    out[f.path] = await fsp.readFile(path.join(ws, f.path), 'utf8');
  return out;
}
