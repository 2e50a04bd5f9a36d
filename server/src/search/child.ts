// A warm search child for one module (server/src/frameworks/assets/amtp.search-child.cjs): started once,
// it loads the module and then runs sequence after sequence over its IPC channel. Each runs under a
// deadline; a child that overruns it (an endless loop cannot be interrupted from inside) or dies has
// its whole process group killed, and `SearchChild.open` starts a fresh one for the rest. The child
// gets a temporary HOME and cwd (removed on close), an env without secrets, no network but loopback,
// a guard on writes outside each sequence's folder, and a heap limit.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assetFile } from '../frameworks/assets';
import { confined } from '../frameworks/run/confine';
import { childEnv } from '../util/childEnv';
import { SANDBOX_VARS } from './sandboxEnv';
import { killChildTree } from '../util/killTree';
import type { Discovery, SeqOutcome, Sequence } from './types';

export interface SearchLimits {
  /** a whole sequence's computing, in ms: each bounded wait the child announces (awaitMs, settleMs) moves the limit later; loading has its own */
  sequenceMs: number;
  /** loading the module and finding its exports */
  loadMs: number;
  /** a promise, an async iterator's next item, or the wait for a callback */
  awaitMs: number;
  /** the code's pending work after the last step */
  settleMs: number;
  maxOldSpaceMb: number;
  /** value nodes a pinned value may have */
  bound: number;
}

export const DEFAULT_SEARCH_LIMITS: SearchLimits = {
  // Half of mocha's default test timeout, so a kept sequence does not time out as a written test; a
  // sequence that computes longer loops for ever or is a slow test (node-forge: 20 endless BigInteger
  // loops at 2 s each cost jsbn.js 40 s). Waits are bounded on their own and do not count.
  sequenceMs: 1000,
  loadMs: 8000,
  awaitMs: 300,
  settleMs: 300,
  maxOldSpaceMb: 256,
  bound: 200,
};

export interface ChildJob {
  /** absolute module file */
  module: string;
  /** the workspace root: coverage counts its files outside node_modules */
  root: string;
  /** replaced file texts (absolute path → code), e.g. the mutation engine's instrumented module */
  overrides?: Record<string, string>;
  /** no block coverage (a mutant child reads Stryker's mutant coverage instead) */
  noCoverage?: boolean;
  limits: SearchLimits;
}

/** A run on instrumented code: the active mutant and its hit limit, or a trace of the mutants the run reaches. */
export interface RunOptions {
  mutant?: string;
  hitLimit?: number;
  trace?: boolean;
  /** each clock read (Date.now, performance.now) this many ms later than the one before: a slow machine (./stability.ts) */
  clockStepMs?: number;
}

type Waiter = (msg: Record<string, unknown> | { kind: 'timeout' } | { kind: 'crash'; detail: string }) => void;

export class SearchChild {
  private waiter?: Waiter;
  /** moves the pending request's time limit `ms` later */
  private allowance?: (ms: number) => void;
  private stderr = '';
  private dead = false;

  private constructor(
    private readonly proc: ChildProcess,
    private readonly home: string,
    private readonly limits: SearchLimits,
  ) {
    proc.on('message', (m) => {
      const msg = m as Record<string, unknown>;
      // The child is about to wait for at most `ms` (a promise, callbacks, pending work): not computing, so not hung.
      if (msg.type === 'wait') this.allowance?.(Number(msg.ms) || 0);
      else this.settle(msg);
    });
    proc.stderr!.on('data', (d: Buffer) => {
      if (this.stderr.length < 16_000) this.stderr += d.toString('utf8');
    });
    proc.on('exit', (code, signal) => {
      this.dead = true;
      // Its temporary home goes with it, also when nobody closes a child that crashed or was never used.
      rmSync(this.home, { recursive: true, force: true });
      this.settle({ kind: 'crash', detail: `exit ${code ?? signal}: ${this.stderr.slice(-400)}` });
    });
    proc.on('error', (e) => {
      this.dead = true;
      this.settle({ kind: 'crash', detail: e.message });
    });
  }

  /** Starts a child and loads the module in it; `load` is set when the module does not load. */
  static async open(job: ChildJob): Promise<{ child: SearchChild; discovery?: Discovery; load?: string }> {
    const home = mkdtempSync(join(tmpdir(), 'amtp-search-'));
    // The in-process guards (network, writes) and, for what the module starts, the confinement.
    const c = confined(
      process.execPath,
      [
        `--max-old-space-size=${job.limits.maxOldSpaceMb}`,
        '--require',
        assetFile('amtp.char-nonet.cjs'),
        '--require',
        assetFile('amtp.search-guard.cjs'),
        assetFile('amtp.search-child.cjs'),
      ],
      SANDBOX_VARS,
    );
    const proc = spawn(c.command, c.args, {
      cwd: home,
      env: childEnv({ home, set: c.set }),
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'json',
    });
    const child = new SearchChild(proc, home, job.limits);
    const init = {
      type: 'init',
      module: job.module,
      root: job.root,
      overrides: job.overrides,
      noCoverage: job.noCoverage,
      typescript: typescriptPath(),
      limits: job.limits,
    };
    const ready = await child.ask(init, job.limits.loadMs);
    if ('kind' in ready) return { child, load: ready.kind === 'timeout' ? 'loading the module timed out' : String(ready.detail) };
    if (ready.type === 'error') return { child, load: String(ready.message) };
    const load = ready.load as { name?: string; message?: string } | undefined;
    if (load) return { child, load: `${load.name}: ${load.message}` };
    return { child, discovery: ready as unknown as Discovery };
  }

  get alive(): boolean {
    return !this.dead;
  }

  /** Runs one sequence; a timeout or a crash ends this child (open another for the rest). */
  async run(seq: Sequence, seed: number, opts: RunOptions = {}): Promise<SeqOutcome> {
    if (this.dead) return { kind: 'crash', detail: 'the child is gone' };
    const reply = await this.ask({ type: 'run', seq, seed, ...opts }, this.limits.sequenceMs);
    if ('kind' in reply) return reply as SeqOutcome;
    if (reply.type === 'error') {
      this.close();
      return { kind: 'crash', detail: String(reply.message) };
    }
    return { kind: 'ran', ...(reply as object) } as SeqOutcome;
  }

  close(): void {
    this.dead = true;
    killChildTree(this.proc);
    rmSync(this.home, { recursive: true, force: true });
  }

  private ask(msg: object, ms: number): Promise<Record<string, unknown>> {
    return new Promise((resolve) => {
      let killAt = Date.now() + ms;
      const expire = () => {
        if (Date.now() < killAt) return void (timer = setTimeout(expire, killAt - Date.now()));
        this.waiter = undefined;
        this.allowance = undefined;
        this.close();
        resolve({ kind: 'timeout' });
      };
      let timer = setTimeout(expire, ms);
      this.allowance = (extra) => void (killAt += Math.max(0, Math.min(extra, 60_000)));
      this.waiter = (m) => {
        clearTimeout(timer);
        this.allowance = undefined;
        resolve(m as Record<string, unknown>);
      };
      try {
        this.proc.send(msg);
      } catch (e) {
        this.settle({ kind: 'crash', detail: (e as Error).message });
      }
    });
  }

  private settle(m: Parameters<Waiter>[0]): void {
    const w = this.waiter;
    this.waiter = undefined;
    w?.(m);
  }
}

/** The `typescript` package AMTP ships (external to the bundles), which the child compiles .ts sources with. */
function typescriptPath(): string {
  return require.resolve('typescript');
}
