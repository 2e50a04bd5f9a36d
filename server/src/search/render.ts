// A sequence as the statements of a test: each step an expression over the module's binding (`lib`),
// its value held in a named variable when a later step or a check uses it (`const stack = new lib.Stack()`),
// promises awaited, generated callbacks declared before the step that passes them (recording their
// calls, and awaited when the code calls them later), literal arguments the code changes held in a
// variable, paths built from the test's temporary folder (`${tmp}/file.txt`).
import type { Arg, CallbackSpec, Observation, Sequence, Step } from './types';
import { jsLiteral, propKey } from './values';

export const TMP = 'tmp';
const RESERVED =
  /^(break|case|catch|class|const|continue|debugger|default|delete|do|else|enum|export|extends|false|finally|for|function|if|import|in|instanceof|new|null|return|super|switch|this|throw|true|try|typeof|var|void|while|with|yield|let|static|implements|interface|package|private|protected|public|await|async|arguments|eval|undefined|NaN|Infinity|tmp|actual|thrown|again|assert|expect|t|describe|it|test|require|module|exports|Object|Array|String|Number|Boolean|Promise|Map|Set|Date|JSON|Math|Error|Buffer|process|console|nodeFs|nodeOs|nodePath|items|events)$/;

export interface Rendered {
  /** statements before the last step (and the last step's declaration when its value is observed) */
  setup: string[];
  /** the last step's expression (awaited when it returned a promise) */
  last: string;
  /** variable of each step's value, when it has one */
  vars: (string | undefined)[];
  /** variables of literal arguments the code changed: `arg` per `${step}:${index}` */
  argVars: Map<string, string>;
  /** callback recorders by callback id */
  recorders: Map<number, string>;
  events: Map<number, string>;
  usesTmp: boolean;
}

function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}

export class Names {
  private readonly taken: Set<string>;
  constructor(taken: Iterable<string>) {
    this.taken = new Set(taken);
  }
  fresh(base: string): string {
    let b = base.replace(/[^\w$]/g, '') || 'value';
    if (/^\d/.test(b)) b = `v${b}`;
    let name = b;
    for (let n = 2; this.taken.has(name) || RESERVED.test(name); n++) name = `${b}${n}`;
    this.taken.add(name);
    return name;
  }
}

function prop(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
}

function access(local: string, path: readonly string[]): string {
  return local + path.map(prop).join('');
}

/** A readable name for a step's value: a class's instance after the class, a factory's product after its name. */
function baseName(step: Step, obs: Observation, i: number): string {
  const cls = obs.values[i]?.shape.cls;
  if (step.op === 'new') return lowerFirst(step.path[step.path.length - 1] ?? (cls && cls !== 'Object' ? cls : 'instance'));
  if (cls && cls !== 'Object' && cls !== 'Function' && cls !== 'Array' && cls !== 'Promise') return lowerFirst(cls);
  if (step.op === 'call') {
    const name = step.path[step.path.length - 1] ?? 'result';
    const product = /^(create|make|new|build|get)([A-Z]\w*)$/.exec(name);
    return product ? lowerFirst(product[2]) : `${name}Result`;
  }
  if (step.op === 'method') return `${step.name}Result`;
  if (step.op === 'iter' || step.op === 'aiter') return 'items';
  return 'result';
}

function usedLater(seq: Sequence, i: number): boolean {
  const uses = (a: Arg): boolean =>
    ('ref' in a && a.ref === i) || ('arr' in a && a.arr.some(uses)) || ('obj' in a && Object.values(a.obj).some(uses));
  return seq.steps.some((s, j) => j > i && (('recv' in s && s.recv === i) || (s.args ?? []).some(uses)));
}

interface Ctx {
  local: string;
  vars: (string | undefined)[];
  recorders: Map<number, string>;
  usesTmp: boolean;
}

function argText(a: Arg, c: Ctx): string {
  if ('lit' in a) return jsLiteral(a.lit);
  if ('ref' in a) return c.vars[a.ref] ?? 'undefined';
  if ('cb' in a) return `callback${c.recorders.get(a.cb.id) ?? a.cb.id}`;
  if ('tmp' in a) {
    c.usesTmp = true;
    return a.tmp ? `\`\${${TMP}}/${a.tmp}\`` : TMP;
  }
  if ('arr' in a) return `[${a.arr.map((x) => argText(x, c)).join(', ')}]`;
  const entries = Object.entries(a.obj).map(([k, v]) => `${propKey(k)}: ${argText(v, c)}`);
  return entries.length ? `{ ${entries.join(', ')} }` : '{}';
}

function stepExpr(step: Step, args: string[], c: Ctx): string {
  const recv = 'recv' in step ? (c.vars[step.recv] ?? 'undefined') : '';
  switch (step.op) {
    case 'call':
      return `${access(c.local, step.path)}(${args.join(', ')})`;
    case 'new':
      return `new ${access(c.local, step.path)}(${args.join(', ')})`;
    case 'method':
      return `${recv}${prop(step.name)}(${args.join(', ')})`;
    case 'callv':
      return `${recv}(${args.join(', ')})`;
    default:
      return recv;
  }
}

/** What a generated task does before it returns: calls back its last argument (CallbackSpec.cont), as the search's child did. */
function callBackLines(cb: CallbackSpec): string[] {
  if (!cb.cont) return [];
  const answer = cb.cont === 'err' ? `done(new Error('task ${cb.id} failed'))` : `done(null, args.length > 1 ? args[0] : ${cb.id})`;
  return [
    `  const done = args[args.length - 1];`,
    `  if (typeof done === 'function') ${cb.async ? `setImmediate(() => ${answer})` : answer};`,
  ];
}

/** A generator function's body after its recording (CallbackSpec.gen): one yield (CallbackSpec.yields), then what it got or the first argument. */
function generatorLines(cb: CallbackSpec, ts: boolean): string[] {
  const promise = `Promise.resolve(${cb.id})`;
  const forms = {
    thunk: `(done${ts ? ': (...args: unknown[]) => void' : ''}) => done(null, ${cb.id})`,
    array: `[${promise}]`,
    object: `{ value: ${promise} }`,
  };
  const yielded = cb.gen === 'err' ? `Promise.reject(new Error('task ${cb.id} failed'))` : cb.yields ? forms[cb.yields] : promise;
  return [`  const got${ts ? ': unknown' : ''} = yield ${yielded};`, cb.ret === 'first' ? '  return args[0];' : '  return got;'];
}

/** In a TypeScript test the recorders are declared with explicit types (`noImplicitAny` rejects `const calls0 = []` captured by a closure). */
function callbackDecl(cb: CallbackSpec, name: string, waitFor: number | undefined, ts: boolean): string[] {
  const ret = cb.ret === 'first' ? ' return args[0];' : cb.ret === 'true' ? ' return true;' : cb.ret === 'false' ? ' return false;' : '';
  // A function expression, as the search's child made it (amtp.search-exec.cjs makeCallback): an arrow
  // has no prototype, so code that treats a function as a class throws where the search saw none.
  const kind = cb.gen ? 'function*' : cb.async && !cb.cont ? 'async function' : 'function';
  const fn = `${kind} (...args${ts ? ': unknown[]' : ''}) {`;
  const list = ts ? `const calls${name}: unknown[][] = [];` : `const calls${name} = [];`;
  const body = [
    `  calls${name}.push(args);`,
    ...(waitFor !== undefined ? [`  if (calls${name}.length === ${waitFor}) called${name}();`] : []),
    ...(cb.gen ? generatorLines(cb, ts) : [...callBackLines(cb), ...(ret ? [` ${ret}`] : [])]),
  ];
  const decl = [`const callback${name} = ${fn}`, ...body, '};'];
  if (waitFor === undefined) return [list, ...decl];
  return [
    list,
    ts ? `let called${name}: (value?: unknown) => void = () => undefined;` : `let called${name};`,
    `const waited${name} = new Promise((resolve) => (called${name} = resolve));`,
    ...decl,
  ];
}

function callbacksOf(step: Step): CallbackSpec[] {
  const out: CallbackSpec[] = [];
  const visit = (a: Arg): void => {
    if ('cb' in a) out.push(a.cb);
    else if ('arr' in a) a.arr.forEach(visit);
    else if ('obj' in a) Object.values(a.obj).forEach(visit);
  };
  (step.args ?? []).forEach(visit);
  return out;
}

/** How many calls of a callback the test waits for after its step: those the child saw up to the step's end, when some came later. */
function waitCount(obs: Observation, id: number): number | undefined {
  const cb = obs.callbacks.find((c) => c.id === id);
  if (!cb || !cb.phases.includes('later')) return undefined;
  const n = cb.settledAt ?? cb.phases.filter((p) => p !== 'observe').length;
  // none by then (a later step's timer calls it): nothing to wait for, and `length === 0` never comes
  return n > 0 ? n : undefined;
}

function consumeLoop(step: Step & { op: 'iter' | 'aiter' }, items: string, recv: string): string[] {
  const max = step.max ?? 50;
  const loop = step.op === 'aiter' ? 'for await' : 'for';
  return [
    `const ${items} = [];`,
    `${loop} (const item of ${recv}) {`,
    `  ${items}.push(item);`,
    `  if (${items}.length === ${max}) break;`,
    `}`,
  ];
}

/** Declares the recorders of a step's callbacks into setup; returns the awaits of those the code calls later. */
function declareCallbacks(step: Sequence['steps'][number], obs: Observation, c: Ctx, setup: string[], ts: boolean): string[] {
  const waits: string[] = [];
  for (const cb of callbacksOf(step)) {
    const name = String(cb.id);
    c.recorders.set(cb.id, name);
    const wait = waitCount(obs, cb.id);
    setup.push(...callbackDecl(cb, name, wait, ts));
    if (wait !== undefined) waits.push(`await waited${name};`);
  }
  return waits;
}

/**
 * An array of the events a listen step records, and the listeners that fill it. With `waitFor`, a
 * promise that resolves once that many came (a stream emits its data and end after `end()` returns).
 */
function listenDecl(v: string, names: readonly string[], recv: string | undefined, ts: boolean, waitFor?: number): string[] {
  const list = ts ? `const ${v}: unknown[][] = [];` : `const ${v} = [];`;
  const args = `...args${ts ? ': unknown[]' : ''}`;
  if (waitFor === undefined)
    return [list, `for (const name of ${JSON.stringify(names)}) ${recv}.on(name, (${args}) => ${v}.push([name, ...args]));`];
  const heard = `heard${v[0].toUpperCase()}${v.slice(1)}`;
  return [
    list,
    ts ? `let ${heard}: (value?: unknown) => void = () => undefined;` : `let ${heard};`,
    `const ${v}Heard = new Promise((resolve) => (${heard} = resolve));`,
    `for (const name of ${JSON.stringify(names)})`,
    `  ${recv}.on(name, (${args}) => {`,
    `    ${v}.push([name, ...args]);`,
    `    if (${v}.length === ${waitFor}) ${heard}();`,
    `  });`,
  ];
}

/** How many events a listen step's test waits for: all the child saw, when some came after the steps ran. */
export function eventWait(obs: Observation, step: number): number | undefined {
  const ev = obs.events.find((e) => e.step === step);
  if (!ev || !ev.phases.includes('later')) return undefined;
  const heard = ev.phases.filter((p) => p !== 'observe').length;
  return heard || undefined;
}

/** The events of listen steps: their arrays by step, and the waits for their later events. */
interface Listening {
  names: Map<number, string>;
  waits: string[];
}

/** Declares a listen step's array and listeners into setup, with a wait for its later events. */
function declareListen(
  step: Step & { op: 'listen' },
  i: number,
  obs: Observation,
  c: Ctx,
  names: Names,
  setup: string[],
  ev: Listening,
  ts: boolean,
): void {
  const v = names.fresh('events');
  ev.names.set(i, v);
  const wait = eventWait(obs, i);
  setup.push(...listenDecl(v, step.events, c.vars[step.recv], ts, wait));
  if (wait !== undefined) ev.waits.push(`await ${v}Heard;`);
}

/** The statements of a sequence, for the steps that ran (a sequence ends at its first throw). */
export function renderSequence(
  seq: Sequence,
  obs: Observation,
  local: string,
  names: Names,
  observed: ReadonlySet<number>,
  ts = false,
): Rendered {
  const ran = obs.steps.length;
  const c: Ctx = { local, vars: [], recorders: new Map(), usesTmp: false };
  const setup: string[] = [];
  const argVars = new Map<string, string>();
  const ev: Listening = { names: new Map(), waits: [] };
  let last = '';
  for (let i = 0; i < ran; i++) {
    const step = seq.steps[i];
    const waits = declareCallbacks(step, obs, c, setup, ts);
    const args = (step.args ?? []).map((a, k) => {
      const mutated = obs.mutated.some((m) => m.step === i && m.arg === k) && 'lit' in a;
      if (!mutated) return argText(a, c);
      const v = names.fresh('arg');
      setup.push(`const ${v} = ${argText(a, c)};`);
      argVars.set(`${i}:${k}`, v);
      return v;
    });
    const r = obs.steps[i];
    const awaited = 'async' in r && r.async && step.op !== 'aiter' && step.op !== 'iter' ? 'await ' : '';
    if (step.op === 'listen') {
      declareListen(step, i, obs, c, names, setup, ev, ts);
      continue;
    }
    if (step.op === 'iter' || step.op === 'aiter') {
      const v = names.fresh('items');
      c.vars[i] = v;
      setup.push(...consumeLoop(step, v, c.vars[step.recv] ?? 'undefined'));
      if (i === ran - 1) last = v;
      continue;
    }
    const expr = `${awaited}${stepExpr(step, args, c)}`;
    const isLast = i === ran - 1;
    // The events come after the last step: it runs in the setup, before the wait for them.
    if (isLast && !observed.has(i) && !waits.length && !ev.waits.length) {
      last = expr;
      continue;
    }
    if (usedLater(seq, i) || observed.has(i) || (isLast && (waits.length || ev.waits.length))) {
      const v = names.fresh(baseName(step, obs, i));
      c.vars[i] = v;
      setup.push(`const ${v} = ${expr};`);
      if (isLast) last = v;
    } else setup.push(`${expr};`);
    setup.push(...waits);
  }
  setup.push(...ev.waits);
  return { setup, last, vars: c.vars, argVars, recorders: c.recorders, events: ev.names, usesTmp: c.usesTmp };
}

/** An argument as a title shows it: short literals, `callback`, `tmp/file.txt`. */
function shortArg(a: Arg): string {
  if ('lit' in a) {
    const t = jsLiteral(a.lit);
    return t.length > 18 ? `${t.slice(0, 15)}...` : t;
  }
  if ('ref' in a) return `<step ${a.ref + 1}>`;
  if ('cb' in a) return 'callback';
  if ('tmp' in a) return a.tmp ? `tmp/${a.tmp}` : 'tmp';
  return 'arr' in a ? '[...]' : '{...}';
}

/** Each step as a title shows it; a method on what the step before gave reads as a chain (`.push(1)`). */
function shortSteps(seq: Sequence, obs: Observation, local: string): { text: string; chained: boolean }[] {
  const chained = (i: number, recv: number) => recv === i - 1 || obs.values[i - 1]?.same === recv;
  return seq.steps.slice(0, obs.steps.length).map((s, i) => {
    const args = (s.args ?? []).map(shortArg).join(', ');
    switch (s.op) {
      case 'call':
        return { text: `${access(local, s.path).replace(new RegExp(`^${local}\\.`), '')}(${args})`, chained: false };
      case 'new': {
        const cls = obs.values[i]?.shape.cls;
        const name = s.path.length ? s.path.join('.') : cls && cls !== 'Object' ? cls : local;
        return { text: `new ${name}(${args})`, chained: false };
      }
      case 'method':
        return chained(i, s.recv)
          ? { text: `.${s.name}(${args})`, chained: true }
          : { text: `${baseName(seq.steps[s.recv], obs, s.recv)}.${s.name}(${args})`, chained: false };
      case 'callv':
        return chained(i, s.recv)
          ? { text: `(${args})`, chained: true }
          : { text: `${baseName(seq.steps[s.recv], obs, s.recv)}(${args})`, chained: false };
      case 'listen':
        return { text: ' with listeners', chained: true };
      default:
        return { text: ' read to the end', chained: true };
    }
  });
}

/**
 * A title for a sequence and its outcome: `new Stack().push(1).peek() returns 1`, steps on other
 * objects after `; `; a long sequence leads with its last call and says what came before.
 */
export function titleOf(seq: Sequence, obs: Observation, local: string, outcome: string, max = 100): string {
  const steps = shortSteps(seq, obs, local);
  const whole = steps.map((s, i) => (i && !s.chained ? `; ${s.text}` : s.text)).join('');
  if (whole.length + outcome.length + 1 <= max) return `${whole} ${outcome}`;
  const cut = (t: string, n: number) => (t.length > n ? `${t.slice(0, n - 3)}...` : t);
  const last = steps[steps.length - 1];
  const step = seq.steps[steps.length - 1];
  const lastText =
    last.chained && 'recv' in step
      ? `${baseName(seq.steps[step.recv], obs, step.recv)}${last.text.startsWith('.') ? '' : ':'}${last.text}`
      : last.text;
  const before =
    steps.length > 1 ? `, after ${cut(steps[0].text, 40)}${steps.length > 2 ? ` and ${steps.length - 2} more step(s)` : ''}` : '';
  return `${cut(lastText, 60)} ${outcome}${before}`;
}
