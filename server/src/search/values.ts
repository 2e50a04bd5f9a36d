// Values crossing to and from the search child (server/src/frameworks/assets/amtp.search-observe.cjs
// encodes and decodes the same tags): JSON with tags for what JSON cannot say, and how each is written
// in a test (`jsLiteral`). Plain objects are wrapped so a user key named "$" is never read as a tag.
export type Tagged =
  | string
  | number
  | boolean
  | null
  | Tagged[]
  | { $: 'num'; v: string }
  | { $: 'undef' }
  | { $: 'big'; v: string }
  | { $: 'date'; v: string }
  | { $: 'obj'; v: { [k: string]: Tagged }; np?: true }
  | { $: 'map'; v: [Tagged, Tagged][] }
  | { $: 'set'; v: Tagged[] }
  | { $: 'buf'; v: string }
  | { $: 're'; v: string; f: string };

/** Tags a value built on this side (generated inputs). Throws for what cannot cross (functions, class instances). */
export function tag(value: unknown): Tagged {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'undefined':
      return { $: 'undef' };
    case 'bigint':
      return { $: 'big', v: String(value) };
    case 'number':
      if (Object.is(value, -0)) return { $: 'num', v: '-0' };
      return Number.isFinite(value) ? value : { $: 'num', v: String(value) };
  }
  if (value === null) return null;
  if (Array.isArray(value)) return value.map(tag);
  if (value instanceof Date) return { $: 'date', v: value.toISOString() };
  if (value instanceof RegExp) return { $: 're', v: value.source, f: value.flags };
  if (value instanceof Map) return { $: 'map', v: [...value].map(([k, v]) => [tag(k), tag(v)] as [Tagged, Tagged]) };
  if (value instanceof Set) return { $: 'set', v: [...value].map(tag) };
  if (typeof value === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(value))) {
    const o: { [k: string]: Tagged } = {};
    for (const [k, v] of Object.entries(value as object))
      Object.defineProperty(o, k, { value: tag(v), enumerable: true, writable: true, configurable: true });
    return Object.getPrototypeOf(value) === null ? { $: 'obj', v: o, np: true } : { $: 'obj', v: o };
  }
  throw new TypeError(`cannot pass ${typeof value} to the search child`);
}

/** Equal keys mean equal values (tags are canonical). */
export function key(v: Tagged | undefined): string {
  return JSON.stringify(v ?? { $: 'undef' });
}

function isTag(v: Tagged): v is Exclude<Tagged, string | number | boolean | null | Tagged[]> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function propKey(k: string): string {
  if (k === '__proto__') return '["__proto__"]';
  return /^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k);
}

/** A JavaScript expression that evaluates to the value (a test's argument or expected value). */
export function jsLiteral(v: Tagged): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean' || v === null) return String(v);
  if (Array.isArray(v)) return `[${v.map(jsLiteral).join(', ')}]`;
  if (!isTag(v)) throw new TypeError('not a tagged value');
  switch (v.$) {
    case 'num':
      return v.v;
    case 'undef':
      return 'undefined';
    case 'big':
      return `${v.v}n`;
    case 'date':
      return `new Date(${JSON.stringify(v.v)})`;
    case 'obj': {
      const entries = Object.entries(v.v).map(([k, x]) => `${propKey(k)}: ${jsLiteral(x)}`);
      const literal = entries.length ? `{ ${entries.join(', ')} }` : '{}';
      // deepStrictEqual compares prototypes: a null-prototype object is written as one
      return v.np ? `Object.assign(Object.create(null), ${literal})` : literal;
    }
    case 'map':
      return v.v.length ? `new Map([${v.v.map(([k, x]) => `[${jsLiteral(k)}, ${jsLiteral(x)}]`).join(', ')}])` : 'new Map()';
    case 'set':
      return v.v.length ? `new Set([${v.v.map(jsLiteral).join(', ')}])` : 'new Set()';
    case 'buf':
      return `Buffer.from(${JSON.stringify(v.v)}, 'hex')`;
    case 're':
      return `new RegExp(${JSON.stringify(v.v)}${v.f ? `, ${JSON.stringify(v.f)}` : ''})`;
  }
}

/** Compared with strictEqual (a primitive) rather than deepStrictEqual (a structure). */
export function isScalar(v: Tagged): boolean {
  return v === null || typeof v !== 'object' || (isTag(v) && ['num', 'undef', 'big'].includes(v.$));
}

export function isNaNTag(v: Tagged): boolean {
  return isTag(v) && v.$ === 'num' && v.v === 'NaN';
}

/** How many nodes a value has (a rough size, for preferring short literals). */
export function size(v: Tagged): number {
  if (Array.isArray(v)) return 1 + v.reduce<number>((s, x) => s + size(x), 0);
  if (v === null || typeof v !== 'object') return typeof v === 'string' ? 1 + Math.floor(v.length / 20) : 1;
  if (v.$ === 'obj') return 1 + Object.values(v.v).reduce<number>((s, x) => s + size(x), 0);
  if (v.$ === 'map') return 1 + v.v.reduce<number>((s, [k, x]) => s + size(k) + size(x), 0);
  if (v.$ === 'set') return 1 + v.v.reduce<number>((s, x) => s + size(x), 0);
  return 1;
}
