// Test bodies for JavaScript frameworks. Only the comparison syntax differs between frameworks
// (expect vs node:assert), so bodies are written once against a small Dialect.
import type { Oracle, TestCase } from '../contracts/types';
import { isStructured, jsString, parseLiteral, toJs, type Literal } from './literals';

export interface Dialect {
  is(actual: string, expected: string): string;
  deep(actual: string, expected: string): string;
  nan(actual: string): string;
  ok(cond: string): string;
}

export const EXPECT: Dialect = {
  is: (a, e) => `expect(${a}).toBe(${e});`,
  deep: (a, e) => `expect(${a}).toEqual(${e});`,
  nan: (a) => `expect(${a}).toBeNaN();`,
  ok: (c) => `expect(${c}).toBe(true);`,
};

export const ASSERT: Dialect = {
  is: (a, e) => `assert.strictEqual(${a}, ${e});`,
  deep: (a, e) => `assert.deepStrictEqual(${a}, ${e});`,
  nan: (a) => `assert.ok(Number.isNaN(${a}));`,
  ok: (c) => `assert.ok(${c});`,
};

type Body = { lines: string[]; async: boolean } | { reason: string };

export function jsBody(c: TestCase, d: Dialect, ts: boolean): Body {
  const o = c.oracle;
  if (!o) return { reason: 'no oracle: the documentation states no checkable result for this case, and the offline engineer never guesses one' };
  if (o.language === 'python') return { reason: 'the case targets Python code' };
  // An async target's documented result is the resolved value, so the call is awaited.
  const needsAwait = c.target.async === true && o.kind !== 'type' && o.kind !== 'exports' && !/\bawait\b/.test(o.call ?? '');
  const isAsync = needsAwait || /\bawait\b/.test(`${o.setup ?? ''}\n${o.call ?? ''}`);
  const aw = needsAwait ? 'await ' : '';
  const setup = (o.setup ?? '').split('\n').filter((l) => l.trim()).map((l) => (/[;{}]$/.test(l.trim()) ? l : `${l};`));
  const call = `${aw}(${o.call})`;
  if (o.property === 'order_independent') {
    const lines: string[] = [...setup];
    for (const [i, s] of (o.sequence ?? []).entries()) {
      const cmp = compare(`r${i}`, s.kind, s.expected, d);
      if ('reason' in cmp) return cmp;
      lines.push(`const r${i} = ${aw}(${s.call});`, ...cmp.lines);
    }
    return { lines, async: isAsync };
  }
  if (!o.call) return { reason: 'the oracle has no call to evaluate' };
  switch (o.kind) {
    case 'type': {
      const lines = [...setup, `const actual = ${call};`, d.is('typeof actual', o.expected && parseLiteral(o.expected) ? o.expected : "'function'")];
      if (c.target.arity !== undefined && c.target.symbol_kind === 'function') lines.push(d.is('actual.length', String(c.target.arity)));
      return { lines, async: false };
    }
    case 'exports':
      return { lines: [...setup, d.ok(`${call} !== undefined`)], async: false };
    case 'throws':
      return throwsBody(o, setup, isAsync, d, ts);
    case 'equals':
    case 'deep_equals':
    case 'prints': {
      const cmp = compare('actual', o.kind, o.expected, d);
      if ('reason' in cmp) return cmp;
      const lines = [...setup, `const actual = ${call};`];
      if (o.property === 'deterministic') lines.push(`const again = ${call};`, d.deep('again', 'actual'));
      return { lines: [...lines, ...cmp.lines], async: isAsync };
    }
    default:
      return { reason: `oracle kind '${o.kind}' has no offline renderer` };
  }
}

function compare(actual: string, kind: Oracle['kind'], expected: string | undefined, d: Dialect): { lines: string[] } | { reason: string } {
  if (expected === undefined) return { reason: 'the oracle has no expected value' };
  if (kind === 'prints') return { lines: [d.is(`String(${actual})`, jsString(expected))] };
  const lit = parseLiteral(expected);
  if (!lit) return { reason: `documented result '${expected.slice(0, 60)}' is not a literal the engineer can compare against` };
  return { lines: [literalAssertion(actual, lit, d)] };
}

function literalAssertion(actual: string, lit: Literal, d: Dialect): string {
  if (lit.t === 'nan') return d.nan(actual);
  return isStructured(lit) ? d.deep(actual, toJs(lit)) : d.is(actual, toJs(lit));
}

function throwsBody(o: Oracle, setup: string[], isAsync: boolean, d: Dialect, ts: boolean): Body {
  const error = o.error ?? 'Error';
  const lines = [...setup, ts ? 'let thrown: unknown;' : 'let thrown;', 'try {', `  ${isAsync ? 'await ' : ''}(${o.call});`, '} catch (err) {', '  thrown = err;', '}'];
  lines.push(d.ok('thrown !== undefined'));
  if (error !== 'Error') {
    const name = jsString(error);
    const e = ts ? '(thrown as { name?: string; constructor?: { name?: string } })' : 'thrown';
    // Compare names, not constructors: a library's own error class is not importable by name, and
    // jest runs test code in its own realm where `instanceof TypeError` can fail across contexts.
    lines.push(d.ok(`[${e}.name, ${e}.constructor?.name].includes(${name})`));
  }
  return { lines, async: isAsync };
}
