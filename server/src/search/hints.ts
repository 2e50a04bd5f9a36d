// What a function's own code says about its inputs, read from its syntax tree: each parameter's name,
// default value and destructured keys; the properties the body reads from it (`opts.base` → an object
// with `base`); the literals it is compared with (`mode === 'strict'`, `case 3:`); what it is used as
// (called → a callback, `.length` → a string or an array, `typeof x === 'number'`), strings the
// regular expression it is tested against accepts (regexSamples.ts); and the number and string
// literals of the function and of its module. Names count too (`cb`, `dir`, `count`, `opts`).
import type { EsNode } from '../util/jsParser';
import { regexSamples, type RegexSource } from './regexSamples';
import { inSourceOrder, literalsIn, push } from './sourceLiterals';
import { tag, type Tagged } from './values';

export type Kind = 'number' | 'string' | 'boolean' | 'array' | 'object' | 'function' | 'path' | 'regexp' | 'date' | 'promise' | 'emitter';

export interface ParamHint {
  name?: string;
  kinds: Kind[];
  literals: Tagged[];
  props: Record<string, ParamHint>;
  rest?: boolean;
  hasDefault?: boolean;
  /** the kinds its declared type (TypeScript, JSDoc) allows */
  declared?: Kind[];
  /** what the code does with its items (`tasks[i](next)`: each is a function) */
  items?: ParamHint;
}

export interface FnHints {
  params: ParamHint[];
  numbers: number[];
  strings: string[];
}

export function emptyHint(name?: string): ParamHint {
  // no prototype: a key read from the code (`opts.constructor`) is never an Object method
  return { name, kinds: [], literals: [], props: Object.create(null) as Record<string, ParamHint> };
}

/** The hint of a list's items, read through `x[i]`. */
function itemsOf(h: ParamHint): ParamHint {
  h.items ??= emptyHint();
  return h.items;
}

/** The hint of a key of `h`, created on first use. */
function propOf(h: ParamHint, k: string): ParamHint {
  if (!Object.prototype.hasOwnProperty.call(h.props, k)) h.props[k] = { ...emptyHint(k), kinds: kindsByName(k) };
  return h.props[k];
}

const NAME_KINDS: [RegExp, Kind][] = [
  [
    /^(cb|callback|done|next|fn|func|iteratee|iterator|predicate|handler|listener|mapper|reducer|comparator|compare|resolver|visitor|task|worker|hook|action|transform|filter|test)$|(Fn|Func|Callback|Handler|Listener|Cb)$/,
    'function',
  ],
  [
    /^(path|dir|directory|file|filename|filepath|folder|dest|destination|src|source|cwd|root|target|output|outDir|base)$|(Path|Dir|File|Folder)$/,
    'path',
  ],
  [
    /^(n|num|number|count|size|length|len|max|min|limit|index|idx|i|j|k|start|end|offset|width|height|depth|level|times|ms|timeout|delay|wait|port|radix|precision|concurrency|amount|step|from|to|total|capacity|cap|x|y|z|a|b)$|^(max|min)[A-Z]|(Count|Size|Index|Length|Ms|Num|Number|Capacity)$/,
    'number',
  ],
  [/^(is|has|should|can|enable|disable|allow|use|strict|loose|force|recursive|deep|silent|verbose|flag|reverse)/, 'boolean'],
  [
    /^(str|string|text|name|key|prefix|suffix|separator|sep|delimiter|word|char|chars|pattern|format|fmt|input|title|label|msg|message|encoding|type|mode|id|url|uri|email|tag|event|eventName|locale|lang|sql|html|json|css|glob|version|range|value)$|(Name|Str|Text|Key|Id|Url)$/,
    'string',
  ],
  [/^(arr|array|list|items|values|keys|elements|args|collection|coll|entries|rows|lines|parts|tokens|words)$|(List|Array|Items)$/, 'array'],
  [
    /^(opts|options|config|cfg|conf|settings|params|props|attrs|attributes|obj|object|data|meta|context|ctx|headers|query|record|dict|hash|defaults|overrides|spec|init|env|state)$|(Options|Opts|Config)$/,
    'object',
  ],
  [/^(re|regex|regexp)$|(Regex|RegExp|Re)$/, 'regexp'],
  [/^(date|time|when|timestamp)$|(Date|Time)$/, 'date'],
];

const STRING_METHODS = new Set([
  'toUpperCase',
  'toLowerCase',
  'trim',
  'split',
  'charAt',
  'charCodeAt',
  'startsWith',
  'endsWith',
  'padStart',
  'padEnd',
  'replace',
  'replaceAll',
  'match',
  'substring',
  'substr',
  'normalize',
  'codePointAt',
  'localeCompare',
  'trimStart',
  'trimEnd',
  'repeat',
]);
const ARRAY_METHODS = new Set([
  'push',
  'pop',
  'shift',
  'unshift',
  'map',
  'filter',
  'forEach',
  'reduce',
  'some',
  'every',
  'find',
  'findIndex',
  'sort',
  'splice',
  'join',
  'flat',
  'flatMap',
  'reverse',
  'fill',
]);
const TYPEOF_KIND: Record<string, Kind> = {
  number: 'number',
  string: 'string',
  boolean: 'boolean',
  function: 'function',
  object: 'object',
  bigint: 'number',
};
const INSTANCE_KIND: Record<string, Kind> = {
  RegExp: 'regexp',
  Date: 'date',
  Array: 'array',
  Map: 'object',
  Set: 'object',
  Promise: 'promise',
  Function: 'function',
};

export function kindsByName(name: string | undefined): Kind[] {
  if (!name) return [];
  return NAME_KINDS.filter(([re]) => re.test(name)).map(([, k]) => k);
}

const sameTag = (a: Tagged, b: Tagged) => JSON.stringify(a) === JSON.stringify(b);

/** A literal node's value (strings, numbers, booleans, null, negative numbers, literal arrays/objects), else undefined. */
function literalValue(n: EsNode | undefined): { v: unknown } | undefined {
  if (!n) return undefined;
  if (n.type === 'Literal' || n.type === 'StringLiteral' || n.type === 'NumericLiteral' || n.type === 'BooleanLiteral') {
    if (n.regex) return { v: new RegExp(n.regex.pattern, n.regex.flags) };
    return typeof n.value === 'bigint' ? undefined : { v: n.value };
  }
  if (n.type === 'NullLiteral') return { v: null };
  if (n.type === 'Identifier' && n.name === 'undefined') return { v: undefined };
  if (n.type === 'UnaryExpression' && n.operator === '-' && typeof literalValue(n.argument)?.v === 'number')
    return { v: -(literalValue(n.argument)!.v as number) };
  if (n.type === 'TemplateLiteral' && n.expressions.length === 0) return { v: n.quasis[0].value.cooked };
  if (n.type === 'ArrayExpression') {
    const items = n.elements.map((e: EsNode) => literalValue(e));
    return items.every(Boolean) ? { v: items.map((i: { v: unknown }) => i.v) } : undefined;
  }
  if (n.type === 'ObjectExpression') {
    const o: Record<string, unknown> = {};
    for (const p of n.properties) {
      const k = p.key?.name ?? p.key?.value;
      const lv = p.type === 'Property' && !p.computed ? literalValue(p.value) : undefined;
      if (typeof k !== 'string' || !lv) return undefined;
      o[k] = lv.v;
    }
    return { v: o };
  }
  return undefined;
}

function kindOfValue(v: unknown): Kind | undefined {
  if (Array.isArray(v)) return 'array';
  if (v instanceof RegExp) return 'regexp';
  const t = typeof v;
  if (t === 'number' || t === 'string' || t === 'boolean') return t as Kind;
  if (v && t === 'object') return 'object';
  return undefined;
}

function addLiteral(h: ParamHint, v: unknown): void {
  try {
    push(h.literals, tag(v), sameTag);
  } catch {
    return;
  }
  const k = kindOfValue(v);
  if (k) push(h.kinds, k);
}

/** The hint a pattern (identifier, destructuring, default) declares, with the names it binds. */
function patternHint(p: EsNode, names: Map<string, ParamHint>): ParamHint {
  if (p.type === 'Identifier') {
    const h = emptyHint(p.name);
    kindsByName(p.name).forEach((k) => push(h.kinds, k));
    names.set(p.name, h);
    return h;
  }
  if (p.type === 'AssignmentPattern') {
    const h = patternHint(p.left, names);
    h.hasDefault = true;
    const lv = literalValue(p.right);
    if (lv) addLiteral(h, lv.v);
    else if (p.right.type === 'ObjectExpression') push(h.kinds, 'object');
    else if (p.right.type === 'ArrayExpression') push(h.kinds, 'array');
    return h;
  }
  if (p.type === 'RestElement') return { ...patternHint(p.argument, names), rest: true };
  if (p.type === 'ObjectPattern') {
    const h = emptyHint();
    push(h.kinds, 'object');
    for (const prop of p.properties) {
      if (prop.type !== 'Property') continue;
      const k = prop.key?.name ?? prop.key?.value;
      if (typeof k === 'string') h.props[k] = patternHint(prop.value, names);
    }
    return h;
  }
  if (p.type === 'ArrayPattern') {
    const h = emptyHint();
    push(h.kinds, 'array');
    return h;
  }
  return emptyHint();
}

/** The hint an expression stands for: a parameter, or a property of one (`opts.base`), creating the property hint. */
function hintOf(n: EsNode, names: Map<string, ParamHint>): ParamHint | undefined {
  if (n.type === 'Identifier') return names.get(n.name);
  if (n.type === 'MemberExpression' && !n.computed && n.property.type === 'Identifier') {
    const owner = hintOf(n.object, names);
    if (!owner) return undefined;
    const k = n.property.name;
    if (k === 'length') {
      push(owner.kinds, 'string');
      push(owner.kinds, 'array');
      return undefined;
    }
    push(owner.kinds, 'object');
    return propOf(owner, k);
  }
  if (n.type === 'MemberExpression' && n.computed) {
    // `x['key']` is a key; `x[i]` an item of a list (or of a map: no kind is concluded from it)
    const owner = hintOf(n.object, names);
    const index = literalValue(n.property);
    if (!owner) return undefined;
    if (typeof index?.v === 'string') return propOf(owner, index.v);
    return index === undefined || typeof index.v === 'number' ? itemsOf(owner) : undefined;
  }
  return undefined;
}

function typeofTarget(n: EsNode, names: Map<string, ParamHint>): ParamHint | undefined {
  return n.type === 'UnaryExpression' && n.operator === 'typeof' ? hintOf(n.argument, names) : undefined;
}

/** The regular expression an expression is: a literal, or a name bound to one in the module. */
function regexAt(n: EsNode, regexes: ReadonlyMap<string, RegexSource>): RegexSource | undefined {
  if (n.regex) return { pattern: n.regex.pattern, flags: n.regex.flags ?? '' };
  return n.type === 'Identifier' ? regexes.get(n.name) : undefined;
}

type Names = Map<string, ParamHint>;
type Regexes = ReadonlyMap<string, RegexSource>;

/** `typeof x === 'number'`, `x === 'a'`, `x > 3`, `x instanceof RegExp`, `'key' in x`. */
function useBinary(n: EsNode, names: Names): void {
  for (const [a, b] of [
    [n.left, n.right],
    [n.right, n.left],
  ] as EsNode[][]) {
    const t = typeofTarget(a, names);
    const lv = literalValue(b);
    if (t && typeof lv?.v === 'string' && TYPEOF_KIND[lv.v]) push(t.kinds, TYPEOF_KIND[lv.v]);
    const h = hintOf(a, names);
    if (h && lv && n.operator !== 'instanceof') addLiteral(h, lv.v);
    if (h && /^[<>]=?$|^[-*/%]$/.test(n.operator)) push(h.kinds, 'number');
    if (h && n.operator === 'instanceof' && b.type === 'Identifier' && INSTANCE_KIND[b.name]) push(h.kinds, INSTANCE_KIND[b.name]);
  }
  if (n.operator === 'in' && literalValue(n.left)) {
    const h = hintOf(n.right, names);
    const k = literalValue(n.left)!.v;
    if (h && typeof k === 'string') propOf(h, k);
  }
}

/** `x(…)` (a callback), `x.trim()` (a string), `x.push()` (an array), `re.test(x)` (a string the regex accepts). */
function useCall(n: EsNode, names: Names, regexes: Regexes): void {
  const callee = n.callee;
  const direct = hintOf(callee, names);
  if (direct) push(direct.kinds, 'function');
  if (callee.type !== 'MemberExpression' || callee.computed || callee.property.type !== 'Identifier') return;
  const m = callee.property.name;
  const recv = callee.object.type === 'Identifier' ? names.get(callee.object.name) : hintOf(callee.object, names);
  if (recv && STRING_METHODS.has(m)) push(recv.kinds, 'string');
  if (recv && ARRAY_METHODS.has(m)) push(recv.kinds, 'array');
  if (recv && (m === 'call' || m === 'apply')) push(recv.kinds, 'function');
  if (recv && m === 'then') push(recv.kinds, 'promise');
  if (recv && (m === 'on' || m === 'emit' || m === 'once')) push(recv.kinds, 'emitter');
  const arg = n.arguments[0] ? hintOf(n.arguments[0], names) : undefined;
  if (arg && m === 'isArray' && callee.object.name === 'Array') push(arg.kinds, 'array');
  if (arg && (m === 'keys' || m === 'entries' || m === 'values') && callee.object.name === 'Object') push(arg.kinds, 'object');
  const re = regexAt(callee.object, regexes);
  if (arg && (m === 'test' || m === 'exec') && re) {
    push(arg.kinds, 'string');
    for (const sample of regexSamples(re)) addLiteral(arg, sample);
  }
  const matched = n.arguments[0] ? regexAt(n.arguments[0], regexes) : undefined;
  if (recv && matched && /^(match|matchAll|replace|replaceAll|split|search)$/.test(m))
    for (const sample of regexSamples(matched)) addLiteral(recv, sample);
}

/** `const { a, b = 2 } = opts`: the keys it takes. */
function useDeclarator(n: EsNode, names: Names): void {
  const h = n.init ? hintOf(n.init, names) : undefined;
  if (!h || n.id.type !== 'ObjectPattern') return;
  const inner = patternHint(n.id, new Map());
  push(h.kinds, 'object');
  for (const [k, v] of Object.entries(inner.props)) if (!Object.prototype.hasOwnProperty.call(h.props, k)) h.props[k] = v;
}

function useOf(n: EsNode, names: Names, regexes: Regexes): void {
  switch (n.type) {
    case 'BinaryExpression':
      return useBinary(n, names);
    case 'SwitchStatement': {
      const h = hintOf(n.discriminant, names);
      if (h) for (const c of n.cases) if (literalValue(c.test)) addLiteral(h, literalValue(c.test)!.v);
      return;
    }
    case 'CallExpression':
      return useCall(n, names, regexes);
    case 'ForOfStatement':
    case 'ForInStatement': {
      const h = hintOf(n.right, names);
      if (h) push(h.kinds, n.type === 'ForOfStatement' ? 'array' : 'object');
      return;
    }
    case 'VariableDeclarator':
      return useDeclarator(n, names);
    case 'MemberExpression':
      // `opts.base` read anywhere: the object has a `base`
      hintOf(n, names);
      return;
    case 'LogicalExpression': {
      // x = x || 'default', opts.n ?? 10
      const h = hintOf(n.left, names);
      const lv = literalValue(n.right);
      if (h && lv && lv.v !== undefined) addLiteral(h, lv.v);
      return;
    }
  }
}

/** Extra arguments a function that reads `arguments` may be given, beyond its declared parameters. */
const ARGUMENTS_EXTRA = 3;

/** Everything the function node says about its parameters and literals; `regexes`: the module's, by the name they are bound to. */
export function functionHints(fn: EsNode, regexes: ReadonlyMap<string, RegexSource> = new Map()): FnHints {
  const names = new Map<string, ParamHint>();
  const params = (fn.params ?? []).map((p: EsNode) => patternHint(p.type === 'TSParameterProperty' ? p.parameter : p, names));
  const nodes = inSourceOrder(fn.body);
  // `function (/* obj_1, [obj_2] */) { … arguments[0] … }` (deep-extend@0.6.0) declares no parameter:
  // what the code does with `arguments[i]` describes the arguments it takes.
  const spread =
    fn.type !== 'ArrowFunctionExpression' && nodes.some((n) => n.type === 'Identifier' && n.name === 'arguments')
      ? emptyHint('arguments')
      : undefined;
  if (spread && !names.has('arguments')) names.set('arguments', spread);
  for (const n of nodes) useOf(n, names, regexes);
  if (spread) for (let i = 0; i < ARGUMENTS_EXTRA; i++) params.push({ ...(spread.items ?? emptyHint()), name: undefined, rest: true });
  const lits = fn.body ? literalsIn(fn.body) : { numbers: [], strings: [] };
  return { params, ...lits };
}

/** Event names the module emits or listens to (`emit('data')`, `on('end')`). */
export function eventNames(program: EsNode): string[] {
  const out: string[] = [];
  for (const n of inSourceOrder(program)) {
    if (n.type !== 'CallExpression' || n.callee.type !== 'MemberExpression' || n.callee.computed) continue;
    if (!/^(emit|on|once|addListener|off|removeListener)$/.test(n.callee.property?.name ?? '')) continue;
    const lv = literalValue(n.arguments[0]);
    if (typeof lv?.v === 'string' && out.length < 12) push(out, lv.v);
  }
  return out;
}
