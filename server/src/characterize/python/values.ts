// Tagged values (../values.ts) as Python: `pyLiteral` is code that evaluates to the value (a call's
// arguments); `pyExpected` is the text of an expected result in the literal dialect the pytest
// renderer reads back (server/src/frameworks/literals.ts parseLiteral 'python'), so NaN is `nan`
// (asserted with math.isnan) and a structure is a literal it compares with ==.
import { pyString } from '../../frameworks/literals';
import type { Tagged } from '../values';

const SPECIAL_FLOAT: Record<string, string> = {
  NaN: "float('nan')",
  Infinity: "float('inf')",
  '-Infinity': "float('-inf')",
  '-0': '-0.0',
};

function isTagObject(v: Tagged): v is Exclude<Tagged, string | number | boolean | null | Tagged[]> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function tupleText(items: string[]): string {
  return items.length === 1 ? `(${items[0]},)` : `(${items.join(', ')})`;
}

/** `bytes` as Python's own repr writes it (b'...'): the pytest renderer compares a value it cannot parse by repr. */
function pyBytesRepr(hex: string): string {
  const bytes = Buffer.from(hex, 'hex');
  const quote = bytes.includes(0x27) && !bytes.includes(0x22) ? '"' : "'";
  let out = '';
  for (const b of bytes) {
    const c = String.fromCharCode(b);
    if (c === quote || c === '\\') out += `\\${c}`;
    else if (c === '\t') out += '\\t';
    else if (c === '\n') out += '\\n';
    else if (c === '\r') out += '\\r';
    else if (b < 0x20 || b >= 0x7f) out += `\\x${b.toString(16).padStart(2, '0')}`;
    else out += c;
  }
  return `b${quote}${out}${quote}`;
}

/** A Python expression that evaluates to the value. */
export function pyLiteral(v: Tagged): string {
  if (typeof v === 'string') return pyString(v);
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (v === null) return 'None';
  if (typeof v === 'number') return String(v);
  if (Array.isArray(v)) return `[${v.map(pyLiteral).join(', ')}]`;
  if (!isTagObject(v)) throw new TypeError('not a tagged value');
  switch (v.$) {
    case 'num':
      // '2.0': a float the Python harness tagged so it stays a float
      return SPECIAL_FLOAT[v.v] ?? (/^-?\d+(\.\d+)?(e[+-]?\d+)?$/.test(v.v) ? v.v : "float('nan')");
    case 'undef':
      return 'None';
    case 'big':
      return v.v;
    case 'date':
      throw new TypeError('a JavaScript Date has no Python literal');
    case 'obj':
      return `{${Object.entries(v.v)
        .map(([k, x]) => `${pyString(k)}: ${pyLiteral(x)}`)
        .join(', ')}}`;
    case 'tuple':
      return tupleText(v.v.map(pyLiteral));
    case 'iter':
      return `iter([${v.v.map(pyLiteral).join(', ')}])`;
    case 'bytes':
      return pyBytesRepr(v.v);
  }
}

/** The expected result's text for an oracle: a literal the pytest renderer parses, or (bytes) Python's repr. */
export function pyExpected(v: Tagged): string {
  if (isTagObject(v)) {
    switch (v.$) {
      case 'num':
        // parseLiteral reads `nan` (asserted with math.isnan) and 1e999 as infinity
        return { NaN: 'nan', Infinity: '1e999', '-Infinity': '-1e999', '-0': '-0.0' }[v.v] ?? pyLiteral(v);
      case 'obj':
        return `{${Object.entries(v.v)
          .map(([k, x]) => `${pyString(k)}: ${pyExpected(x)}`)
          .join(', ')}}`;
      case 'tuple':
        return tupleText(v.v.map(pyExpected));
      case 'iter':
        // the case's call is list(...) (case.ts)
        return pyExpected(v.v);
      default:
        return pyLiteral(v);
    }
  }
  if (Array.isArray(v)) return `[${v.map(pyExpected).join(', ')}]`;
  return pyLiteral(v);
}
