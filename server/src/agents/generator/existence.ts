// Existence and arity checks (`typeof x === 'function'`, `x.length === 3`, `x !== undefined`) say
// that an export is there, not that it works: they are planned only where no documented behaviour
// exists, and summaries count them apart so they never pass for coverage of behaviour.
import type { TestCase } from '../../contracts/types';

const SHAPE_ORACLES = new Set(['type', 'arity', 'exports']);

export function isExistenceOnly(c: Pick<TestCase, 'kind' | 'oracle'>): boolean {
  return c.kind === 'smoke' && (!c.oracle || SHAPE_ORACLES.has(c.oracle.kind));
}

/** Share of existence-only cases, 0..1 (0 for no cases). */
export function existenceShare(cases: Pick<TestCase, 'kind' | 'oracle'>[]): number {
  return cases.length ? cases.filter(isExistenceOnly).length / cases.length : 0;
}

/**
 * Whether a written test calls its target (`sum(…)`, `new Stack(…)`, `obj.method(…)`), rather than
 * only looking at it (`typeof sum`, `sum.length`, `callable(sum)`): a smoke case whose test calls
 * the target and asserts on what it did checks behaviour, whatever the plan called it.
 */
export function testCallsTarget(testText: string, symbol: string): boolean {
  const name = symbol.split('.').pop()!.replace(/[$]/g, '\\$');
  if (!/^[A-Za-z_$][\w$\\]*$/.test(name)) return false;
  // The test's own name (its first line's string) is no call.
  const body = testText.replace(/^[^\n]*?(['"`])(?:\\.|(?!\1)[^\\])*\1/, '');
  return (
    [...body.matchAll(new RegExp(`(^|[^\\w$.])(typeof\\s+|callable\\(|hasattr\\([^)]*)?${name}\\s*\\(`, 'gm'))].some((m) => !m[2]) ||
    new RegExp(`\\.${name}\\s*\\(|new\\s+${name}\\s*\\(`).test(body)
  );
}
