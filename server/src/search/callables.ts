// What the search can call in a module: the functions and classes the child found from the module
// value (through namespaces and static members), constructors with `new`, and the methods of every
// kind of object a call has returned (a class's prototype methods, a factory's object of functions),
// keyed by the object's kind. Each callable carries its parameter hints (hints.ts: read from the
// function's syntax tree where the child located it, else found by name in the module's files) and the
// crawler's seed for the same symbol.
import type { EsNode } from '../util/jsParser';
import { walk } from '../util/esTree';
import type { GoalMap } from './goals';
import { functionHints, type FnHints, type ParamHint } from './hints';
import { paramHints, type Seed } from './inputs';
import type { ExportFn, Member, Place, Shape } from './types';

export interface Callable {
  /** unique: `call:a.b`, `new:Stack`, `method:Stack#push` */
  key: string;
  /** the symbol as the crawler names it: `parse`, `Stack`, `Stack.push` */
  symbol: string;
  op: 'call' | 'new' | 'method';
  path?: string[];
  /** for methods: the kind of object they are called on (shapeKey) and their name */
  on?: string;
  method?: string;
  arity: number;
  params: ParamHint[];
  seed?: Seed;
  at?: Place;
  tries: number;
  /** runs of it that timed out or left work pending */
  hangs?: number;
}

/** What kind of object a value is, for finding receivers of a method: its class, or its set of methods. */
export function shapeKey(shape: Shape): string | undefined {
  if (shape.t === 'function') return shape.ctor ? undefined : 'fn';
  if (shape.t !== 'object' || shape.thenable) return undefined;
  if (shape.cls && shape.cls !== 'Object') return `cls:${shape.cls}`;
  const names = (shape.methods ?? []).filter((m) => m.kind === 'method').map((m) => m.name);
  return names.length ? `obj:${[...names].sort().join(',')}` : undefined;
}

/** The symbol a test file names an export path by (`default` stands for the module's main export). */
export function symbolOf(path: string[], local: string): string {
  const rest = path[0] === 'default' ? path.slice(1) : path;
  return rest.length ? rest.join('.') : local;
}

function hintsAt(goals: GoalMap, at: Place | undefined): FnHints | undefined {
  const fn = goals.functionAt(at);
  return fn ? functionHints(fn, goals.regexesOf(at!.file)) : undefined;
}

/** A method's function node found by name in the module's files (a factory's object literal, an unexported class). */
function methodNode(goals: GoalMap, name: string): EsNode | undefined {
  for (const file of goals.knownFiles) {
    const program = goals.programOf(file);
    const found = program && methodsByName(program).get(name);
    if (found) return found;
  }
  return undefined;
}

const methodIndex = new WeakMap<EsNode, Map<string, EsNode>>();

/** Each member name's first function in a file, in walk order: one walk per file, not one per method (node-forge: 3 s). */
function methodsByName(program: EsNode): Map<string, EsNode> {
  let index = methodIndex.get(program);
  if (index) return index;
  const built = new Map<string, EsNode>();
  walk(program, (n) => {
    const isMember = n.type === 'MethodDefinition' || n.type === 'Property' || n.type === 'PropertyDefinition';
    const k = n.key?.name ?? n.key?.value;
    if (isMember && typeof k === 'string' && !built.has(k) && n.value && /Function/.test(n.value.type)) built.set(k, n.value);
  });
  methodIndex.set(program, (index = built));
  return index;
}

export class Callables {
  readonly list: Callable[] = [];
  /** methods by receiver kind */
  private readonly methods = new Map<string, Callable[]>();

  constructor(
    private readonly goals: GoalMap,
    private readonly seeds: ReadonlyMap<string, Seed>,
    private readonly local: string,
  ) {}

  private add(c: Callable): void {
    if (this.list.some((x) => x.key === c.key)) return;
    this.list.push(c);
    if (c.on) {
      if (!this.methods.has(c.on)) this.methods.set(c.on, []);
      this.methods.get(c.on)!.push(c);
    }
  }

  fromExports(exports: readonly ExportFn[]): void {
    // A module that is itself a function and also names it `default` (UMD: `module.exports.default =`):
    // the `default` copy is left out, since a runner's default import may give either one (vitest gives
    // `module.exports.default`, where `slugify.default` is then undefined).
    const callableModule = exports.some((e) => e.path.length === 0);
    for (const e of exports) {
      if (callableModule && e.path[0] === 'default') continue;
      const symbol = symbolOf(e.path, this.local);
      const seed = this.seeds.get(symbol);
      const hints = hintsAt(this.goals, e.at);
      const params = paramHints(hints, seed, e.arity);
      const base = { symbol, path: e.path, arity: e.arity, params, seed, at: e.at, tries: 0 };
      if (e.ctor) {
        this.add({ ...base, key: `new:${e.path.join('.')}`, op: 'new' });
        this.fromMembers(`cls:${e.name}`, symbol, e.proto);
      } else this.add({ ...base, key: `call:${e.path.join('.')}`, op: 'call' });
    }
  }

  private fromMembers(on: string, owner: string, members: readonly Member[]): void {
    for (const m of members) {
      if (m.kind !== 'method' || m.name.startsWith('_') || m.name === 'constructor') continue;
      const symbol = `${owner}.${m.name}`;
      const seed = this.seeds.get(symbol);
      const fn = m.at ? this.goals.functionAt(m.at) : methodNode(this.goals, m.name);
      const params = paramHints(fn ? functionHints(fn, m.at ? this.goals.regexesOf(m.at.file) : new Map()) : undefined, seed, m.arity ?? 0);
      this.add({
        key: `method:${on}#${m.name}`,
        symbol,
        op: 'method',
        on,
        method: m.name,
        arity: m.arity ?? 0,
        params,
        seed,
        at: m.at,
        tries: 0,
      });
    }
  }

  /** Registers the methods of a kind of object a run returned; true when the kind is new. */
  learnShape(shape: Shape): boolean {
    const key = shapeKey(shape);
    if (!key || key === 'fn' || this.methods.has(key)) return false;
    const owner = shape.cls && shape.cls !== 'Object' ? shape.cls : 'object';
    this.methods.set(key, []);
    this.fromMembers(key, owner, shape.methods ?? []);
    return true;
  }

  methodsOn(key: string): Callable[] {
    return this.methods.get(key) ?? [];
  }

  roots(): Callable[] {
    return this.list.filter((c) => c.op !== 'method');
  }
}
