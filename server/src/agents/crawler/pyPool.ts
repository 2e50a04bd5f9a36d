// Python parsing beside the crawler's own work. tree-sitter reads Python at ~5 MB/s in WebAssembly
// (CPython's own `ast` is no faster), so on a large tree parsing was the biggest part of a crawl after
// the walk. One worker thread parses while the crawl reads the next files; when the crawl has read them
// all it has nothing else to do, so it takes files from the other end of the same queue itself: two
// parsers on a two-core machine, for the memory of one extra thread. Where no worker can start, every
// file is parsed on the crawl's thread.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { loadPython } from '../../frameworks/pyGrammar';
import { extractPySymbols, type PyFileFacts } from './pySymbols';
import type { PyAnswer, PyJob } from './pyWorker';

/** Characters sent to the worker ahead of its answers, so it never waits for this thread between files. */
const AHEAD_CHARS = 256 * 1024;
/** A worker left idle this long ends, so an editor session does not keep it. */
const IDLE_MS = 30_000;

interface Job {
  id: number;
  text: string;
  resolve(f: PyFileFacts): void;
  reject(e: Error): void;
}

interface Helper {
  worker: Worker;
  /** sent, not yet answered */
  sent: Map<number, Job>;
  sentChars: number;
}

const queue: Job[] = [];
let helper: Helper | undefined;
let noHelper = false;
let nextId = 0;
let idleTimer: NodeJS.Timeout | undefined;

/** Starts the worker ahead of the first file, so loading the parser overlaps other work. */
export function warmPyPool(): void {
  if (helper || noHelper) return;
  const file = workerFile();
  try {
    helper = file ? startHelper(file) : undefined;
  } catch {
    helper = undefined;
  }
  if (!helper) noHelper = true;
}

/** Facts of one Python file; rejects when the file cannot be parsed or the parser cannot load. */
export function parsePython(text: string): Promise<PyFileFacts> {
  warmPyPool();
  if (idleTimer) clearTimeout(idleTimer);
  return new Promise<PyFileFacts>((resolve, reject) => {
    queue.push({ id: nextId++, text, resolve, reject });
    feed();
  });
}

/**
 * Parses queued files on this thread, newest first, until none is left unsent; the worker keeps
 * taking the oldest. Resolves when the queue is empty (files at the worker may still be in flight).
 */
export async function helpParsePython(): Promise<void> {
  if (!queue.length) return;
  let py: Awaited<ReturnType<typeof loadPython>>;
  try {
    py = await loadPython();
  } catch (e) {
    for (const job of queue.splice(0)) job.reject(e as Error);
    return;
  }
  while (queue.length) {
    const job = queue.pop()!;
    try {
      job.resolve(extractPySymbols(py, job.text));
    } catch (e) {
      job.reject(e as Error);
    }
    // Let the worker's answers in, so it is sent its next files while this thread parses.
    await new Promise((r) => setImmediate(r));
  }
}

function feed(): void {
  if (!helper) {
    if (noHelper) void helpParsePython();
    return;
  }
  while (queue.length && (helper.sentChars < AHEAD_CHARS || helper.sent.size === 0)) {
    const job = queue.shift()!;
    helper.sent.set(job.id, job);
    helper.sentChars += job.text.length;
    helper.worker.ref(); // an answer is owed: keep the process alive for it
    helper.worker.postMessage({ id: job.id, text: job.text } satisfies PyJob);
  }
}

function startHelper(file: { path: string; execArgv: string[] }): Helper {
  const worker = new Worker(file.path, { execArgv: file.execArgv, name: 'amtp-python' });
  const h: Helper = { worker, sent: new Map(), sentChars: 0 };
  worker.on('message', (a: PyAnswer) => {
    const job = h.sent.get(a.id);
    if (!job) return;
    h.sent.delete(a.id);
    h.sentChars -= job.text.length;
    if (a.ok) job.resolve(a.facts);
    else job.reject(new Error(a.error));
    feed();
    if (!h.sent.size) {
      worker.unref();
      scheduleIdleEnd();
    }
  });
  const gone = () => {
    if (helper !== h) return;
    helper = undefined;
    noHelper = true;
    // Files the worker never answered go back to the queue and are parsed here.
    queue.unshift(...h.sent.values());
    h.sent.clear();
    void helpParsePython();
  };
  worker.on('error', gone);
  worker.on('exit', gone);
  // After the listeners: adding a 'message' listener refs the worker again, and an idle worker kept
  // a process that had crawled (the bench, a CLI run) from ever exiting.
  worker.unref();
  return h;
}

function scheduleIdleEnd(): void {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    const h = helper;
    if (!h || h.sent.size || queue.length) return;
    helper = undefined; // not `gone`: a later crawl may start a new one
    void h.worker.terminate();
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
