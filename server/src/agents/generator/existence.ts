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
