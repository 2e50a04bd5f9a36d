// Python parsing off the crawler's thread. tree-sitter reads Python at ~4 MB/s in WebAssembly
// (CPython's own `ast` is no faster), so on a large tree parsing was the biggest part of a crawl after
// the walk. A pool of worker threads, one per core up to two, parses while the crawl goes on reading
// files; each worker loads the parser once. Where workers cannot start, files are parsed here instead.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { loadPyParser } from './pyParser';
import { extractPySymbols, type PyFileFacts } from './pySymbols';
import type { PyAnswer, PyJob } from './pyWorker';

const MAX_WORKERS = 2;
/** Workers left idle this long end, so an editor session does not keep them. */
const IDLE_MS = 30_000;

interface Slot {
  worker: Worker;
  pending: Map<number, { resolve(f: PyFileFacts): void; reject(e: Error): void }>;
}

let slots: Slot[] | undefined;
let nextId = 0;
let turn = 0;
let idleTimer: NodeJS.Timeout | undefined;

/** Starts the workers ahead of the first file, so loading the parser overlaps other work. */
export function warmPyPool(): void {
  slots ??= startWorkers();
}

/** Facts of one Python file; rejects when the file cannot be parsed or the parser cannot load. */
export async function parsePython(text: string): Promise<PyFileFacts> {
  warmPyPool();
  if (!slots!.length) return extractPySymbols(await loadPyParser(), text);
  if (idleTimer) clearTimeout(idleTimer);
  const slot = slots![turn++ % slots!.length];
  const id = nextId++;
  return new Promise<PyFileFacts>((resolve, reject) => {
    slot.pending.set(id, { resolve, reject });
    slot.worker.ref(); // an answer is owed: keep the process alive for it
    slot.worker.postMessage({ id, text } satisfies PyJob);
  });
}

function startWorkers(): Slot[] {
  const file = workerFile();
  if (!file) return [];
  const out: Slot[] = [];
  const n = Math.max(1, Math.min(MAX_WORKERS, availableParallelism()));
  try {
    for (let i = 0; i < n; i++) out.push(startWorker(file));
  } catch {
    for (const s of out) void s.worker.terminate();
    return [];
  }
  return out;
}

function startWorker(file: { path: string; execArgv: string[] }): Slot {
  const worker = new Worker(file.path, { execArgv: file.execArgv, name: 'amtp-python' });
  worker.unref();
  const slot: Slot = { worker, pending: new Map() };
  worker.on('message', (a: PyAnswer) => {
    const p = slot.pending.get(a.id);
    if (!p) return;
    slot.pending.delete(a.id);
    if (a.ok) p.resolve(a.facts);
    else p.reject(new Error(a.error));
    if (!slot.pending.size) {
      worker.unref();
      scheduleIdleEnd();
    }
  });
  const fail = (e: Error) => {
    for (const p of slot.pending.values()) p.reject(e);
    slot.pending.clear();
    slots = slots?.filter((s) => s !== slot);
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the Python parser thread exited (${code})`)));
  return slot;
}

function scheduleIdleEnd(): void {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    if (!slots || slots.some((s) => s.pending.size)) return;
    const ending = slots;
    slots = undefined;
    for (const s of ending) void s.worker.terminate();
  }, IDLE_MS);
  idleTimer.unref();
}

/**
 * The worker's script: pyWorker.js beside this bundle, or, run from source (tests), pyWorker.ts
 * through tsx. Undefined when neither is there: parsing then stays on this thread.
 */
function workerFile(): { path: string; execArgv: string[] } | undefined {
  const bundled = path.join(__dirname, 'pyWorker.js');
  if (existsSync(bundled)) return { path: bundled, execArgv: [] };
  const source = path.join(__dirname, 'pyWorker.ts');
  if (!__filename.endsWith('.ts') || !existsSync(source)) return undefined;
  try {
    return { path: source, execArgv: ['--require', require.resolve('tsx/cjs')] };
  } catch {
    return undefined;
  }
}
