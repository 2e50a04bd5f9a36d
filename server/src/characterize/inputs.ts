// The inputs AMTP tries on a function with no documented result: the arguments of documented
// examples, typed boundary values (0, -1, '', NaN, [], {}, null, a long string), the literals in the
// function's own source, and values fast-check generates from the declared types with a fixed seed
// (the same inputs on every run, so a characterization is reproducible).
import * as fc from 'fast-check';

export type ParamKind = 'number' | 'string' | 'boolean' | 'array' | 'object' | 'unknown';

export interface InputSeed {
  /** parameter count (fn.length or the signature's) */
  arity: number;
  /** e.g. "(a: number, b?: string): string" or "def f(a: int, b: str = '')" */
  signature?: string;
  /** doc comment text; JSDoc `@param {type} name` lines give kinds */
  doc?: string;
  /** the function's source, for its literals */
  source?: string;
  /** argument lists from documented examples */
  examples?: unknown[][];
}

export const FIXED_SEED = 20_261_123;
const LONG = 'x'.repeat(300);

const BOUNDARY: Record<ParamKind, unknown[]> = {
  number: [0, -1, 1, 2.5, NaN, Number.MAX_SAFE_INTEGER],
  string: ['', 'a', 'Hello World', ' padded ', LONG],
  boolean: [true, false],
  array: [[], [1, 2, 3], ['b', 'a']],
  object: [{}, { a: 1, b: 'two' }],
  unknown: [undefined, null, 0, -1, '', 'abc', NaN, [], {}, [1, 2, 3], true],
};

export function kindOfType(type: string): ParamKind {
  const t = type
    .trim()
    .toLowerCase()
    .replace(/\s*\|\s*(null|undefined|none)\b/g, '');
  if (/^(number|int|float|integer|bigint|complex)$/.test(t)) return 'number';
  if (/^(string|str)$/.test(t) || /^(['"]).*\1(\s*\|\s*(['"]).*\3)*$/.test(t)) return 'string';
  if (/^(boolean|bool)$/.test(t)) return 'boolean';
  if (/\[\]$|^(array|list|tuple|readonlyarray|sequence)\b/.test(t)) return 'array';
  if (/^(object|record|dict|mapping)\b|^\{/.test(t)) return 'object';
  return 'unknown';
}

/** Kinds per parameter from a TypeScript/Python signature, then JSDoc @param types, else unknown. */
function paramKinds(seed: InputSeed): ParamKind[] {
  const kinds: ParamKind[] = Array.from({ length: seed.arity }, () => 'unknown');
  const params = /\(([^)]*)\)/.exec(seed.signature ?? '')?.[1];
  if (params) {
    params
      .split(',')
      .map((p) => p.trim())
      .filter((p) => p && p !== 'self' && p !== 'cls')
      .forEach((p, i) => {
        const type = /^[\w$.]+\??\s*:\s*([^=]+)/.exec(p)?.[1];
        if (type && i < kinds.length) kinds[i] = kindOfType(type);
      });
  }
  let i = 0;
  for (const m of (seed.doc ?? '').matchAll(/@param\s+\{([^}]+)\}/g)) {
    if (i < kinds.length && kinds[i] === 'unknown') kinds[i] = kindOfType(m[1]);
    i++;
  }
  return kinds;
}

/** Number and string literals written in the function's source (the values its branches compare with). */
function sourceLiterals(source: string | undefined): { numbers: number[]; strings: string[] } {
  const text = source ?? '';
  const numbers = [...new Set([...text.matchAll(/(?<![\w$.])-?\d+(?:\.\d+)?(?![\w$])/g)].map((m) => Number(m[0])))].slice(0, 8);
  const strings = [...new Set([...text.matchAll(/(['"])((?:\\.|(?!\1)[^\\\n]){0,40})\1/g)].map((m) => m[2]))].slice(0, 8);
  return { numbers, strings };
}

function arbitraryOf(kind: ParamKind): fc.Arbitrary<unknown> {
  switch (kind) {
    case 'number':
      return fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }));
    case 'string':
      return fc.string({ maxLength: 12 });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(fc.oneof(fc.integer({ min: -50, max: 50 }), fc.string({ maxLength: 5 })), { maxLength: 5 });
    case 'object':
      return fc.dictionary(fc.string({ minLength: 1, maxLength: 4 }), fc.integer({ min: -9, max: 9 }), { maxKeys: 3 });
    case 'unknown':
      return fc.oneof(
        fc.integer({ min: -100, max: 100 }),
        fc.string({ maxLength: 8 }),
        fc.boolean(),
        fc.constant(null),
        fc.array(fc.integer({ min: -9, max: 9 }), { maxLength: 4 }),
      );
  }
}

/** Argument lists to try, examples first, without duplicates, at most `max`. */
export function candidateInputs(seed: InputSeed, max = 40): unknown[][] {
  const kinds = paramKinds(seed);
  const lits = sourceLiterals(seed.source);
  const pools = kinds.map((k) => {
    const extra = k === 'number' ? lits.numbers : k === 'string' ? lits.strings : k === 'unknown' ? [...lits.numbers, ...lits.strings] : [];
    return [...BOUNDARY[k], ...extra];
  });
  const out: unknown[][] = [];
  const seen = new Set<string>();
  const add = (args: unknown[]) => {
    const key = JSON.stringify(args, (_k, v) => (typeof v === 'number' && !Number.isFinite(v) ? `#${v}` : v === undefined ? '#u' : v));
    if (out.length < max && !seen.has(key)) {
      seen.add(key);
      out.push(args);
    }
  };
  for (const ex of seed.examples ?? []) add(ex);
  if (kinds.length === 0) {
    add([]);
    return out;
  }
  // One parameter varied at a time around a base of the others' first boundary values.
  const base = pools.map((p) => p[0]);
  for (let i = 0; i < pools.length; i++) for (const v of pools[i]) add(base.map((b, j) => (j === i ? v : b)));
  const generated = fc.sample(fc.tuple(...kinds.map(arbitraryOf)), { seed: FIXED_SEED, numRuns: 12 });
  for (const args of generated) add(args as unknown[]);
  return out;
}
