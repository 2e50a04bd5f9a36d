// The call sequences the search builds and what the child (server/src/frameworks/assets/amtp.search-child.cjs)
// reports about them. Both sides read the same JSON: a sequence is a list of steps, each step's value
// is `values[i]`, and later steps refer to it by index.
import type { Tagged } from './values';

/** A generated callback: it records its calls; `ret` is what it returns (`first`: its first argument). */
export interface CallbackSpec {
  id: number;
  ret?: 'first' | 'true' | 'false';
  async?: boolean;
  /**
   * A continuation-passing task: it calls its last argument, when a function, with `(null, value)`
   * ('ok') or an Error ('err'); with `async`, on the next turn of the event loop.
   */
  cont?: 'ok' | 'err';
  /** a generator function that yields once: a promise that rejects ('err'), or ('ok') a value in one of `yields`'s forms */
  gen?: 'ok' | 'err';
  /** what an 'ok' generator yields: a promise of its id (the default), a thunk, an array or an object of such promises */
  yields?: 'thunk' | 'array' | 'object';
}

export type Arg =
  | { lit: Tagged }
  /** the value of an earlier step */
  | { ref: number }
  | { cb: CallbackSpec }
  /** a path inside the sequence's temporary folder (the test's `tmp`) */
  | { tmp: string }
  | { arr: Arg[] }
  | { obj: Record<string, Arg> };

export type Step =
  /** call an export (`path` from the module value; [] is the module itself) */
  | { op: 'call'; path: string[]; args: Arg[] }
  | { op: 'new'; path: string[]; args: Arg[] }
  | { op: 'method'; recv: number; name: string; args: Arg[] }
  /** call a function an earlier step returned */
  | { op: 'callv'; recv: number; args: Arg[] }
  /** take at most `max` items of an iterator (`iter`) or an async iterator or stream (`aiter`) */
  | { op: 'iter' | 'aiter'; recv: number; max?: number; args?: undefined }
  /** record the events an emitter emits from here on */
  | { op: 'listen'; recv: number; events: string[]; args?: undefined };

export interface Sequence {
  id: string;
  steps: Step[];
  /** files the sequence's temporary folder holds before it runs */
  files?: { path: string; content: string }[];
}

export interface ErrorInfo {
  name: string;
  message: string;
  /** raised by the engine on a bad value ("Cannot read properties of undefined"), not by the code's own check */
  engine: boolean;
  /** thrown from a project file (the code's own `throw`) */
  own: boolean;
  error: boolean;
}

type StepResult = { ok: true; async: boolean; done?: boolean } | { ok: false; async: boolean; error: ErrorInfo } | { timeout: true };

export interface Member {
  name: string;
  kind: 'method' | 'get';
  arity?: number;
  at?: Place;
}

export interface Shape {
  t: string;
  cls?: string;
  arity?: number;
  ctor?: boolean;
  fnKind?: string;
  statics?: Member[];
  proto?: Member[];
  methods?: Member[];
  thenable?: boolean;
  iter?: boolean;
  asyncIter?: boolean;
  emitter?: boolean;
  stream?: boolean;
  /** a stream that takes writes (`write` and `end`): a Writable, Duplex or Transform */
  writable?: boolean;
}

/** A recorded argument: a pinned value, an error (name and message), or why it cannot be pinned. */
export type SeenArg = { v: Tagged } | { error: { name: string; message: string } } | { why: string };

export interface ValueSeen {
  shape: Shape;
  /** the pinned value, when it can be pinned */
  v?: Tagged;
  why?: string;
  /** the same object as an earlier step's value (a method that returns `this`) */
  same?: number;
  /** an instance's observers: `spread`, `.prop`, `String`, `.valueOf()`, `.toJSON()` */
  obs?: { expr: string; v: Tagged }[];
}

type Phase = 'sync' | 'await' | 'later' | 'observe';

export interface Observation {
  steps: StepResult[];
  /** nothing of the code was pending when it was observed */
  settled: boolean;
  values: (ValueSeen | null | undefined)[];
  /** literal object and array arguments the sequence changed (`v` absent: changed into something unpinnable) */
  mutated: { step: number; arg: number; v?: Tagged }[];
  /** `settledAt`: how many calls there were when the step that passed it had settled */
  /** when each call or event came: while a step ran, while it was awaited, after it, or while the child observed the values */
  callbacks: { id: number; step?: number; args: SeenArg[][]; phases: Phase[]; settledAt?: number }[];
  events: { step: number; list: SeenArg[][]; phases: Phase[] }[];
}

/** Segments [start, end, count] of each project file (root-relative) that ran, in the text V8 ran. */
export type CoverSegments = Record<string, [number, number, number][]>;

export interface Place {
  file: string;
  line: number;
  column: number;
}

/** A function or class the child found from the module value. */
export interface ExportFn {
  path: string[];
  name: string;
  arity: number;
  ctor: boolean;
  fnKind: string;
  at?: Place;
  proto: Member[];
  statics: Member[];
}

export interface Discovery {
  exports: ExportFn[];
  constants: { path: string[]; v: Tagged }[];
  shape: Shape;
  /** the texts of the project files loading ran */
  texts: Record<string, string>;
}

export interface RunReply {
  kind: 'ran';
  obs: Observation;
  cover: CoverSegments;
  texts: Record<string, string>;
  /** writes outside the sequence's folder, child processes, exits the guard refused */
  guard: string[];
  /** tries to reach the network */
  net: number;
  uncaught: string[];
  /** on instrumented code, traced: the mutants the run reached (id → hits) */
  reached?: Record<string, number>;
}

export type SeqOutcome = RunReply | { kind: 'timeout' } | { kind: 'crash'; detail: string };
