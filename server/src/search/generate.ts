// The feedback-directed loop for one module (generate → execute → select): build a sequence
// (builder.ts), run it in the warm child, and keep it as a candidate when it reached a statement, a
// branch or a library error no earlier run reached. A clean run that made an object is kept for
// extension. Runs that wrote outside their folder, tried the network, left work pending or crashed
// are never candidates. The loop stops after a fixed number of runs (derived from the time budget,
// so the same runs happen on every machine); a wall-clock limit is only a safety net, and says so.
import type { JsParser } from '../util/jsParser';
import { rootSequence, extendSequence, type BuilderState, type Extendable } from './builder';
import { Callables, shapeKey, symbolOf } from './callables';
import { SearchChild, type ChildJob } from './child';

type Opened = Awaited<ReturnType<typeof SearchChild.open>>;
import { errorGoal, GoalMap } from './goals';
import { eventNames } from './hints';
import { literalsIn } from './sourceLiterals';
import { regexesIn, regexSamples } from './regexSamples';
import type { Seed } from './inputs';
import { hashSeed, makeRng } from './rng';
import type { Discovery, Observation, RunReply, Sequence, Step } from './types';
import { isTrivialArgs } from './trivial';
import { key, size } from './values';

/** runs without a new candidate after which a module counts as saturated (at least; a quarter of its runs otherwise) */
const STALL_MIN = 400;
/** sequences kept for extension at most */
const MAX_CORPUS = 1000;
/** values a pool of one kind holds at most */
const MAX_POOL = 60;

export interface Candidate {
  seq: Sequence;
  obs: Observation;
  goals: string[];
  /** when it ran: ties in selection go to the earlier */
  order: number;
  trivial: boolean;
}

export interface GenerateOptions {
  job: ChildJob;
  /** the crawler's seeds by symbol */
  seeds: ReadonlyMap<string, Seed>;
  /** the name tests bind the module value to */
  local: string;
  parser: JsParser;
  seed: number;
  executions: number;
  maxSteps?: number;
  /** wall-clock safety net (epoch ms): past it the loop stops early and says so */
  deadline?: number;
  signal?: AbortSignal;
}

export interface GenerateResult {
  candidates: Candidate[];
  executed: number;
  unusable: number;
  /** runs refused for writing outside their folder, the network, or a child process */
  sideEffects: number;
  covered: Set<string>;
  goals: GoalMap;
  callables: number;
  /** clean runs kept for extension (they left a state or reached code no earlier run did) */
  corpus: Extendable[];
  /** the builder (its generator, callables and pools), for the survivor search */
  state?: BuilderState;
  load?: string;
  cutByClock?: boolean;
}

/** The symbol a step calls (for error goals and case targets). */
export function stepSymbol(seq: Sequence, obs: Observation | undefined, i: number, local: string): string {
  const s: Step = seq.steps[i];
  if (s.op === 'call' || s.op === 'new') return symbolOf(s.path, local);
  const owner = obs?.values[s.recv]?.shape.cls;
  const base = owner && owner !== 'Object' && owner !== 'Function' ? owner : stepSymbol(seq, obs, s.recv, local);
  return s.op === 'method' ? `${base}.${s.name}` : base;
}

function lastIndex(obs: Observation): number {
  return obs.steps.length - 1;
}

function usable(r: RunReply): boolean {
  return r.obs.settled && r.guard.length === 0 && r.net === 0 && r.uncaught.length === 0 && r.obs.steps.every((s) => !('timeout' in s));
}

class Loop {
  readonly goals: GoalMap;
  readonly covered = new Set<string>();
  /** goals reached by a run with no trivial argument */
  readonly solid = new Set<string>();
  /** object states (observers of every value) runs have left */
  readonly states = new Set<string>();
  readonly candidates: Candidate[] = [];
  readonly corpus: Extendable[] = [];
  readonly receivers = new Map<string, { at: number; step: number }[]>();
  callables!: Callables;
  unusable = 0;
  sideEffects = 0;
  executed: () => number = () => 0;
  /** the module's pools of values, which values calls returned join */
  pools?: BuilderState['pools'];
  private readonly openCache = new Map<string, { at: number; n: number }>();

  constructor(private readonly o: GenerateOptions) {
    this.goals = new GoalMap(o.parser);
  }

  open(key: string, at: Parameters<GoalMap['goalsIn']>[0], executed: number): number {
    const hit = this.openCache.get(key);
    if (hit && executed - hit.at < 25) return hit.n;
    const n = this.goals.goalsIn(at).filter((g) => !this.covered.has(g)).length;
    this.openCache.set(key, { at: executed, n });
    return n;
  }

  take(seq: Sequence, r: RunReply, order: number): void {
    this.goals.learn(r.texts);
    if (!usable(r)) {
      this.unusable++;
      if (r.guard.length || r.net) this.sideEffects++;
      return;
    }
    const obs = r.obs;
    const last = lastIndex(obs);
    const end = obs.steps[last];
    const found = this.goals.blockGoals(r.cover);
    const symbol = stepSymbol(seq, obs, last, this.o.local);
    const eg = end && 'ok' in end && !end.ok ? errorGoal(symbol, end.error) : undefined;
    if (eg) found.push(eg);
    // V8 counts a block as run when a call in it threw: a clean return of each callable is its own goal.
    if (end && 'ok' in end && end.ok) found.push(`returns:${symbol}`);
    // What an iterator or a stream yields is behaviour a test can check, though reading it may run no code of the project.
    seq.steps.forEach((s, i) => {
      const r = obs.steps[i];
      if ((s.op === 'iter' || s.op === 'aiter') && r && 'ok' in r && r.ok)
        found.push(`items:${stepSymbol(seq, obs, s.recv, this.o.local)}`);
    });
    // An event an emitter emits is behaviour a test can check, though it runs no new code of the project.
    for (const ev of obs.events)
      for (const e of ev.list) if ('v' in e[0]) found.push(`event:${stepSymbol(seq, obs, ev.step, this.o.local)}:${String(e[0].v)}`);
    // A goal reached so far only with trivial values is still open for a run with real ones.
    const trivial = isTrivialArgs(seq, obs);
    const fresh = found.filter((g) => !this.covered.has(g) || (!trivial && !this.solid.has(g)));
    found.forEach((g) => this.covered.add(g));
    if (!trivial) found.forEach((g) => this.solid.add(g));
    if (fresh.length) this.candidates.push({ seq, obs, goals: found, order, trivial });
    this.poolValues(obs);
    const clean = obs.steps.every((s) => 'ok' in s && s.ok);
    let learned = false;
    obs.values.forEach((v) => v && (learned = this.callables.learnShape(v.shape) || learned));
    // A state no sequence reached before (a queue one item fuller) is worth extending even when it ran no new code.
    const state = JSON.stringify(obs.values.map((v) => v?.obs ?? null));
    const newState = !this.states.has(state);
    this.states.add(state);
    if (clean && (fresh.length || learned || newState) && this.corpus.length < MAX_CORPUS) this.addToCorpus(seq, obs);
  }

  /** Values calls returned feed later calls (what `format` gives, `parse` may take), as Randoop's pool does. */
  private poolValues(obs: Observation): void {
    const pools = this.pools;
    if (!pools) return;
    for (const v of obs.values) {
      const x = v?.v;
      if (typeof x === 'string' && x.length <= 80 && !pools.strings.includes(x) && pools.strings.length < MAX_POOL) pools.strings.push(x);
      else if (typeof x === 'number' && !pools.numbers.includes(x) && pools.numbers.length < MAX_POOL) pools.numbers.push(x);
      else if (x !== undefined && x !== null && typeof x === 'object' && size(x) <= 12 && pools.constants.length < MAX_POOL)
        if (!pools.constants.some((c) => key(c) === key(x))) pools.constants.push(x);
    }
  }

  private addToCorpus(seq: Sequence, obs: Observation): void {
    const at = this.corpus.push({ seq, obs }) - 1;
    obs.values.forEach((v, step) => {
      const key = v && v.same === undefined ? shapeKey(v.shape) : undefined;
      if (!key) return;
      if (!this.receivers.has(key)) this.receivers.set(key, []);
      const list = this.receivers.get(key)!;
      if (list.length >= 40) list.shift();
      list.push({ at, step });
    });
  }
}

function poolsOf(goals: GoalMap, constants: { v: unknown }[], main: string): BuilderState['pools'] {
  const program = goals.programOf(main);
  const lits = program ? literalsIn(program, 40) : { numbers: [], strings: [] };
  const matching = program ? regexesIn(program).flatMap((re) => regexSamples(re, 2)) : [];
  const strings = [...lits.strings, ...matching.filter((s) => !lits.strings.includes(s))];
  return {
    numbers: lits.numbers,
    strings,
    constants: constants.map((c) => c.v as BuilderState['pools']['constants'][number]).slice(0, 20),
  };
}

function builderState(loop: Loop, d: Discovery, o: GenerateOptions, main: string, executed: () => number): BuilderState {
  const program = loop.goals.programOf(main);
  return {
    rng: makeRng(hashSeed(o.seed, main)),
    callables: loop.callables,
    corpus: loop.corpus,
    receivers: loop.receivers,
    open: (c) => loop.open(c.key, c.at, executed()),
    pools: poolsOf(loop.goals, d.constants, main),
    events: program ? eventNames(program) : [],
    maxSteps: o.maxSteps ?? 6,
    typed: /\.[cm]?tsx?$/.test(main),
  };
}

/** An extension, drawn a few times (a draw can land on a sequence already at its longest). */
function extendAgain(state: BuilderState, id: string): ReturnType<typeof extendSequence> {
  for (let i = 0; i < 8; i++) {
    const next = extendSequence(state, id);
    if (next) return next;
  }
  return undefined;
}

/** Runs up to `o.executions` sequences; stops early when the module is saturated or the clock cuts. */
async function runLoop(
  loop: Loop,
  state: BuilderState,
  o: GenerateOptions,
  first: Opened,
): Promise<{ executed: number; cutByClock: boolean }> {
  let opened = first;
  // A warm spare: a run that hangs or leaves work pending costs its child, not a child's start-up.
  let spare: Promise<Opened> | undefined;
  const replace = async () => {
    opened.child.close();
    opened = await (spare ?? SearchChild.open(o.job));
    spare = SearchChild.open(o.job);
  };
  // Stopping after a count of runs with nothing new is as deterministic as the budget itself.
  const stall = Math.max(STALL_MIN, Math.floor(o.executions / 4));
  let lastCount = 0;
  let lastGain = 0;
  let executed = 0;
  loop.executed = () => executed;
  try {
    for (; executed < o.executions && !o.signal?.aborted; executed++) {
      if (o.deadline !== undefined && Date.now() > o.deadline) return { executed, cutByClock: true };
      const id = `${executed}`;
      // When every root hangs, the objects already made still have methods to try.
      const next =
        (state.rng.chance(loop.corpus.length ? 0.55 : 0) ? extendSequence(state, id) : undefined) ??
        rootSequence(state, id) ??
        extendAgain(state, id);
      if (!next) break;
      const r = await opened.child.run(next.seq, o.seed);
      if (r.kind === 'ran') loop.take(next.seq, r, executed);
      else loop.unusable++;
      // A run that left work pending (an endless async loop) would leave it to the next runs too.
      if (r.kind !== 'ran' || !r.obs.settled) {
        if (next.callable) next.callable.hangs = (next.callable.hangs ?? 0) + 1;
        await replace();
        if (!opened.discovery) break;
      }
      if (loop.candidates.length !== lastCount) {
        lastCount = loop.candidates.length;
        lastGain = executed;
      } else if (executed - lastGain >= stall) break; // nothing new for a long while: the module is saturated
    }
  } finally {
    opened.child.close();
    if (spare) void spare.then((x) => x.child.close());
  }
  return { executed, cutByClock: false };
}

export async function generate(o: GenerateOptions, main: string): Promise<GenerateResult> {
  const loop = new Loop(o);
  const opened = await SearchChild.open(o.job);
  const result = (executed: number, extra: Partial<GenerateResult> = {}): GenerateResult => ({
    candidates: loop.candidates,
    executed,
    unusable: loop.unusable,
    sideEffects: loop.sideEffects,
    covered: loop.covered,
    goals: loop.goals,
    callables: loop.callables?.list.length ?? 0,
    corpus: loop.corpus,
    ...extra,
  });
  if (!opened.discovery) {
    opened.child.close();
    return result(0, { load: opened.load });
  }
  const d = opened.discovery;
  let state: BuilderState;
  try {
    loop.goals.learn(d.texts);
    loop.callables = new Callables(loop.goals, o.seeds, o.local);
    loop.callables.fromExports(d.exports);
    state = builderState(loop, d, o, main, () => loop.executed());
    loop.pools = state.pools;
  } catch (e) {
    opened.child.close();
    throw e;
  }
  const { executed, cutByClock } = await runLoop(loop, state, o, opened);
  return result(executed, { state, ...(cutByClock ? { cutByClock } : {}) });
}
