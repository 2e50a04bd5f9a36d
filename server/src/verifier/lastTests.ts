// The keep rule never leaves a function it was asked to test without a test (the is-what relay run,
// F11): measured per file, every test of `isString` went because its callers cover its code, and a
// documented function's value assertions went with them. So after the coverage filter and the mutant
// killers, each target function whose stable tests would all go keeps its best one (per file: that
// test's file), and so does each function's documented behaviour (a case from its docs, README or
// doctest): the best test asserting it stays when all of them would go. An existence-only test is
// never put back: it asserts no value.
import type { TestCase } from '../contracts/types';
import type { VerifyState } from './state';

const EXISTENCE_ONLY = /existence-only test/;
const DOCUMENTED = new Set(['readme', 'jsdoc', 'docstring', 'doctest']);

/** Best first: a documented case, then priority, then the file's order. */
function rank(c: TestCase | undefined, order: number): string {
  return `${DOCUMENTED.has(c?.evidence?.source ?? '') ? 0 : 1}${c?.priority ?? 'P3'}${String(order).padStart(6, '0')}`;
}

/**
 * Removes from `gone` (test id, or test file path when `perCase` is false → reason) what a target
 * function's last test, or last test of its documented behaviour, needs. Returns the case ids kept so.
 */
export function keepLastTests(s: VerifyState, perCase: boolean, gone: Map<string, string>, shapeOnly: Map<string, string>): string[] {
  const keyOf = (id: string, file: string) => (perCase ? id : file);
  const going = (id: string, file: string) => gone.has(keyOf(id, file)) || shapeOnly.has(id);
  const groups = new Map<string, { id: string; file: string; rank: string }[]>();
  s.stable.forEach((t, order) => {
    const c = s.caseOf.get(t.id);
    if (!c) return;
    const reason = gone.get(keyOf(t.id, t.file.path)) ?? shapeOnly.get(t.id) ?? '';
    if (EXISTENCE_ONLY.test(reason.split(';')[0])) return;
    const entry = { id: t.id, file: t.file.path, rank: rank(c, order) };
    const fn = `${c.target.file}#${c.target.symbol}`;
    groups.set(fn, [...(groups.get(fn) ?? []), entry]);
    if (DOCUMENTED.has(c.evidence?.source ?? '')) groups.set(`${fn}#documented`, [...(groups.get(`${fn}#documented`) ?? []), entry]);
  });
  const kept: string[] = [];
  for (const [fn, tests] of [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (!tests.every((t) => going(t.id, t.file))) continue;
    const best = [...tests].sort((a, b) => (a.rank < b.rank ? -1 : 1))[0];
    gone.delete(keyOf(best.id, best.file));
    shapeOnly.delete(best.id);
    kept.push(best.id);
    const what = fn.endsWith('#documented') ? `the documented behaviour of ${fn.slice(0, -'#documented'.length)}` : fn;
    s.ctx.debug(`verify: ${perCase ? best.id : best.file} is kept although it adds no coverage: it is the last test of ${what}`);
  }
  return kept;
}
