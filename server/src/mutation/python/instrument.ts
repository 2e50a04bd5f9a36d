// Lists the mutants of Python modules with AMTP's `ast` instrumenter
// (server/src/frameworks/assets/amtp_mutate.py), run by the project's interpreter with the allow-list env of
// util/childEnv.ts (no secret; HOME is the empty temporary folder it runs from), in isolated mode (-I: neither the cwd nor the user's site is on
// sys.path). The ids it gives each file (from `firstId` on) are the ones the pytest plugin places when
// it instruments the same file again as it is imported.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mutationAssetPath } from '../assets';
import type { Mutant } from '../types';
import { childEnv } from '../../util/childEnv';

interface PyMutant {
  id: string;
  file: string;
  mutator: string;
  original: string;
  replacement: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  status?: string;
  statusReason?: string;
}

export interface InstrumentedPython {
  /** workspace-relative path → the id of its first mutant */
  firstIds: Map<string, number>;
  /** workspace-relative path → the instrumented module's text (what the plugin compiles, as source) */
  files: Map<string, string>;
  mutants: (Mutant & { filtered?: string })[];
  failed: { file: string; reason: string }[];
}

export async function instrumentPython(python: string, sources: Map<string, string>, signal?: AbortSignal): Promise<InstrumentedPython> {
  const cwd = mkdtempSync(join(tmpdir(), 'amtp-pymutate-'));
  try {
    const input = JSON.stringify({ files: [...sources].map(([name, content]) => ({ name, content })) });
    const answer = JSON.parse(await run(python, input, cwd, signal)) as {
      files: { name: string; content: string; firstId: number }[];
      mutants: PyMutant[];
      failed: { name: string; error: string }[];
    };
    return {
      firstIds: new Map(answer.files.map((f) => [f.name, f.firstId])),
      files: new Map(answer.files.map((f) => [f.name, f.content])),
      mutants: answer.mutants.map(toMutant),
      failed: answer.failed.map((f) => ({ file: f.name, reason: f.error })),
    };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

/** ast columns are 0-based UTF-8 offsets; the record's are 1-based (close enough for ASCII source). */
function toMutant(m: PyMutant): Mutant & { filtered?: string } {
  return {
    id: m.id,
    file: m.file,
    mutator: m.mutator,
    original: m.original,
    replacement: m.replacement,
    start: { line: m.line, column: m.column + 1 },
    end: { line: m.endLine, column: m.endColumn + 1 },
    ...(m.status === 'Ignored' ? { filtered: m.statusReason ?? 'ignored' } : {}),
  };
}

function run(python: string, input: string, cwd: string, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, ['-I', mutationAssetPath('amtp_mutate.py')], {
      cwd,
      env: childEnv({ home: cwd }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    const onAbort = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      signal?.removeEventListener('abort', onAbort);
      if (code === 0) resolve(out);
      else reject(new Error(`the Python instrumenter failed (exit ${code}): ${err.trim().split('\n').slice(-1)[0] ?? ''}`));
    });
    child.stdin.end(input);
  });
}
