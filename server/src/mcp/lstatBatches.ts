import * as fs from 'node:fs';
import { Worker } from 'node:worker_threads';

/**
 * lstat for every file a walk lists, run beside the walk. One lstat per file is most of a large walk's
 * cost (the kernel resolves each path afresh), while the names come from readdir alone. So the walk
 * hands file paths here in batches: on a large tree a helper thread lstats them while the walk goes on
 * reading directories, and when the walk is done this thread takes batches from the other end. Results
 * go into shared memory, so nothing is copied back. Small trees never start the helper.
 *
 * lstat, never stat: a file replaced by a symlink after readdir reports the link, not its target.
 */

const BATCH = 1024;
/** The first files are lstat'ed here at once: a small tree is walked before a helper thread would be up (~20-30 ms). */
const HELPER_AFTER_FILES = 2 * BATCH;
/** Claim states of a batch. */
const FREE = 0;
const CLAIMED = 1;
const DONE = 2;
/** A helper that makes no progress for this long is taken as gone; this thread redoes its batch. */
const STALL_MS = 5_000;

interface Batch {
  paths: string[];
  /** one Int32: FREE, CLAIMED or DONE; whoever moves it from FREE to CLAIMED does the batch */
  claim: Int32Array;
  /** [size, mtimeMs] per path; size -1 when the file could not be lstat'ed (vanished since readdir) */
  out: Float64Array;
}

/** The helper's whole program; a string, so the same code runs from the bundle, under tsx and in tests. */
const HELPER_SOURCE = `
const { lstatSync } = require('node:fs');
const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ claim, root, joined, out }) => {
  const flag = new Int32Array(claim);
  if (Atomics.compareExchange(flag, 0, ${FREE}, ${CLAIMED}) !== ${FREE}) return;
  const paths = joined.split('\\0');
  const res = new Float64Array(out);
  for (let i = 0; i < paths.length; i++) {
    let st;
    try { st = lstatSync(root + '/' + paths[i], { throwIfNoEntry: false }); } catch { st = undefined; }
    res[2 * i] = st ? st.size : -1;
    res[2 * i + 1] = st ? st.mtimeMs : 0;
  }
  Atomics.store(flag, 0, ${DONE});
  Atomics.notify(flag, 0);
});
`;

let helper: Worker | undefined;
let noThreads = false;

/** One helper per process, reused by every walk; unref'd so it never keeps the process alive. */
function getHelper(): Worker | undefined {
  if (helper || noThreads) return helper;
  try {
    const w = new Worker(HELPER_SOURCE, { eval: true, name: 'amtp-lstat' });
    w.unref();
    const drop = () => {
      if (helper === w) helper = undefined;
    };
    w.on('error', drop);
    w.on('exit', drop);
    helper = w;
  } catch {
    noThreads = true; // no worker threads here: every lstat runs on this thread
  }
  return helper;
}

/** Sizes and mtimes of queued paths, by the index `add` returned. */
export interface LstatResults {
  /** -1 when the file could not be lstat'ed */
  size(i: number): number;
  mtimeMs(i: number): number;
}

export class LstatBatches {
  private readonly batches: Batch[] = [];
  private current: string[] = [];
  private count = 0;

  /** `root` is absolute; paths are root-relative with forward slashes. */
  constructor(private readonly root: string) {}

  /** Queues `rel`; returns its index into the results of `finish()`. */
  add(rel: string): number {
    this.current.push(rel);
    if (this.current.length === BATCH) this.flush();
    return this.count++;
  }

  /** Returns once every queued path has been lstat'ed; synchronous, like the walk that calls it. */
  finish(): LstatResults {
    if (this.current.length) this.flush();
    // This thread works from the newest batch backwards while the helper works forwards.
    for (let i = this.batches.length - 1; i >= 0 && this.claim(i); i--) this.run(i);
    for (let i = 0; i < this.batches.length; i++) {
      const { claim } = this.batches[i];
      if (this.claim(i)) this.run(i);
      while (Atomics.load(claim, 0) !== DONE) {
        if (Atomics.wait(claim, 0, CLAIMED, STALL_MS) === 'timed-out' && Atomics.load(claim, 0) !== DONE) this.run(i);
      }
    }
    const outs = this.batches.map((b) => b.out);
    return {
      size: (i) => outs[(i / BATCH) | 0][(i % BATCH) * 2],
      mtimeMs: (i) => outs[(i / BATCH) | 0][(i % BATCH) * 2 + 1],
    };
  }

  private flush(): void {
    const paths = this.current;
    this.current = [];
    const batch: Batch = {
      paths,
      claim: new Int32Array(new SharedArrayBuffer(4)),
      out: new Float64Array(new SharedArrayBuffer(16 * paths.length)),
    };
    this.batches.push(batch);
    const h = this.count + 1 > HELPER_AFTER_FILES ? getHelper() : undefined;
    // One string per batch (NUL never occurs in a path): cloning it is a copy, where an array of
    // 1024 strings was cloned string by string on this thread.
    if (h) h.postMessage({ claim: batch.claim.buffer, root: this.root, joined: paths.join('\0'), out: batch.out.buffer });
    else if (this.claim(this.batches.length - 1)) this.run(this.batches.length - 1);
  }

  private claim(i: number): boolean {
    return Atomics.compareExchange(this.batches[i].claim, 0, FREE, CLAIMED) === FREE;
  }

  private run(index: number): void {
    const { paths, out, claim } = this.batches[index];
    for (let i = 0; i < paths.length; i++) {
      let st: fs.Stats | undefined;
      try {
        st = fs.lstatSync(`${this.root}/${paths[i]}`, { throwIfNoEntry: false });
      } catch {
        st = undefined; // e.g. a path component replaced since readdir: treated like a vanished file
      }
      out[2 * i] = st ? st.size : -1;
      out[2 * i + 1] = st ? st.mtimeMs : 0;
    }
    Atomics.store(claim, 0, DONE);
  }
}
