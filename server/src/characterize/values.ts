// Values crossing the process boundary to and from the Python characterization harness
// (server/src/frameworks/assets/amtp.char-harness.py decodes and encodes the same tags): JSON
// with tags for what JSON cannot say (NaN, -0, undefined, bigint, Date) and plain objects wrapped so
// a user key named "$" is never mistaken for a tag. The Python harness uses the same tags, plus
// tuples and bytes; python/values.ts writes them as Python.
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
  | { $: 'obj'; v: { [k: string]: Tagged } }
  // Python only (server/src/frameworks/assets/amtp.char-harness.py): a tuple, bytes as hex, and
  // the items an iterator (a generator) yielded, pinned as list(call)
  | { $: 'tuple'; v: Tagged[] }
  | { $: 'iter'; v: Tagged[] }
  | { $: 'bytes'; v: string };

/** Tags a JS value built on this side (generated inputs). Throws for what cannot cross (functions, class instances). */
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
  if (typeof value === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(value))) {
    const o: { [k: string]: Tagged } = {};
    for (const [k, v] of Object.entries(value as object))
      Object.defineProperty(o, k, { value: tag(v), enumerable: true, writable: true, configurable: true });
    return { $: 'obj', v: o };
  }
  throw new TypeError(`cannot pass ${typeof value} to the characterization harness`);
}

/** Identity of a result across runs: equal keys mean equal values (tags are canonical). */
export function sameTagged(a: Tagged, b: Tagged): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function isTag(v: Tagged): v is Exclude<Tagged, string | number | boolean | null | Tagged[]> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Whether a value is a scalar (compared with strictEqual) rather than a structure (deepStrictEqual). */
export function isScalar(v: Tagged): boolean {
  return v === null || typeof v !== 'object' || (isTag(v) && v.$ !== 'obj' && v.$ !== 'date' && v.$ !== 'tuple' && v.$ !== 'iter');
}
