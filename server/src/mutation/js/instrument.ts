// Runs the StrykerJS instrumenter (instrumentWorker.ts) in a child process: dist/mutationWorker.js
// beside this bundle, or, run from source (tests), instrumentWorker.ts through tsx. The child gets the
// allow-list env of util/childEnv.ts (no secret) with an empty temporary cwd as its HOME, and file names under that folder: babel, which looks for
// a project's babel config from the cwd and the file's folder, finds none, and no secret is in reach.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InstrumentAnswer, WorkerMutant } from './instrumentWorker';
import type { Mutant } from '../types';
import { childEnv } from '../../util/childEnv';

export interface InstrumentedFiles {
  /** workspace-relative path → instrumented text */
  files: Map<string, string>;
  mutants: (Mutant & { filtered?: string })[];
  failed: { file: string; reason: string }[];
}

/** The worker's script: mutationWorker.js beside this bundle, or, run from source (tests), instrumentWorker.ts through tsx. */
function workerCommand(): string[] {
  const bundled = join(__dirname, 'mutationWorker.js');
  if (existsSync(bundled)) return [bundled];
  try {
    return ['--require', require.resolve('tsx/cjs'), join(__dirname, 'instrumentWorker.ts')];
  } catch {
    throw new Error(`the StrykerJS instrumenter's worker is missing (${bundled})`);
  }
}

/** Instruments `sources` (workspace-relative path → text) in one pass: mutant ids are unique across them. */
export async function instrumentJs(sources: Map<string, string>, signal?: AbortSignal): Promise<InstrumentedFiles> {
  const cwd = mkdtempSync(join(tmpdir(), 'amtp-instrument-'));
  try {
    const root = `${cwd}/`;
    const request = { files: [...sources].map(([rel, content]) => ({ name: root + rel, content })) };
    const answer = await runWorker(JSON.stringify(request), cwd, signal);
    const rel = (name: string) => (name.startsWith(root) ? name.slice(root.length) : name);
    const files = new Map(answer.files.map((f) => [rel(f.name), disableTypeChecks(rel(f.name), f.content)]));
    const mutants = answer.mutants.map((m) => toMutant(m, rel(m.fileName), sources.get(rel(m.fileName)) ?? ''));
    return { files, mutants, failed: answer.failed.map((f) => ({ file: rel(f.name), reason: f.error })) };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

/** A mutant can break a type (`{}` for a typed object): TypeScript under test is not type-checked (ts-jest would). */
function disableTypeChecks(path: string, text: string): string {
  if (!/\.[cm]?tsx?$/.test(path) || text.includes('// @ts-nocheck')) return text;
  const hashbang = text.startsWith('#!') ? text.slice(0, text.indexOf('\n') + 1) : '';
  return `${hashbang}// @ts-nocheck\n${text.slice(hashbang.length)}`;
}

function toMutant(m: WorkerMutant, file: string, source: string): Mutant & { filtered?: string } {
  const start = { line: m.location.start.line + 1, column: m.location.start.column + 1 };
  const end = { line: m.location.end.line + 1, column: m.location.end.column + 1 };
  return {
    id: m.id,
    file,
    mutator: m.mutatorName,
    original: textAt(source, start, end),
    replacement: m.replacement,
    start,
    end,
    ...(m.status === 'Ignored' ? { filtered: m.statusReason ?? 'ignored' } : {}),
  };
}

/** The source between two 1-based positions. */
function textAt(source: string, start: { line: number; column: number }, end: { line: number; column: number }): string {
  const lines = source.split('\n');
  if (start.line === end.line) return (lines[start.line - 1] ?? '').slice(start.column - 1, end.column - 1);
  const first = (lines[start.line - 1] ?? '').slice(start.column - 1);
  const middle = lines.slice(start.line, end.line - 1);
  const last = (lines[end.line - 1] ?? '').slice(0, end.column - 1);
  return [first, ...middle, last].join('\n');
}

function runWorker(input: string, cwd: string, signal?: AbortSignal): Promise<InstrumentAnswer> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, workerCommand(), { cwd, env: childEnv({ home: cwd }), stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const onAbort = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      signal?.removeEventListener('abort', onAbort);
      if (code !== 0) return reject(new Error(`the instrumenter failed (exit ${code}): ${err.trim().split('\n')[0] ?? ''}`));
      try {
        resolve(JSON.parse(out) as InstrumentAnswer);
      } catch (e) {
        reject(new Error(`the instrumenter's answer does not parse: ${(e as Error).message}`));
      }
    });
    child.stdin.end(input);
  });
}
