// Why did a test fail: is the test wrong, or may the code have a bug?
//
// Rule (docs/verifier.md): a consistently failing test is a *possible bug in the code* when its
// expectation is documented — the case's evidence is documentation (README, JSDoc @example,
// docstring, doctest), its oracle carries the documented result, and the test asserts that very
// result (the literal appears verbatim in the test). The code then contradicts its own docs.
// Anything else is *the test is wrong* (e.g. an expected value the docs do not state).
import type { TestCase } from '../contracts/types';

const DOC_SOURCES = new Set(['readme', 'jsdoc', 'docstring', 'doctest']);

export interface Classification {
  kind: 'possible_bug' | 'test_wrong';
  /** for people: observed vs documented, or why the test is considered wrong */
  reason: string;
}

export function classifyFailure(c: TestCase | undefined, testText: string | undefined, message: string): Classification {
  const observed = observedValue(message);
  const documented = documentedExpectation(c);
  if (c && documented && testText && assertsLiteral(testText, documented)) {
    const where = c.evidence?.location ? ` (${c.evidence.source} ${c.evidence.location})` : ` (${c.evidence?.source})`;
    return {
      kind: 'possible_bug',
      reason: `possible bug in ${c.target.symbol} (${c.target.file}): documented ${c.oracle?.call ?? c.title} → ${documented}${where}; observed: ${observed}`,
    };
  }
  const why = !c ? 'the test has no planned case' : !documented ? 'its expectation is not a documented result' : 'it does not assert the documented result';
  return { kind: 'test_wrong', reason: `test is wrong: ${why}; runner said: ${observed}` };
}

/** The documented result a case's oracle carries, when its evidence is documentation. */
export function documentedExpectation(c: TestCase | undefined): string | undefined {
  if (!c?.oracle || !c.evidence || !DOC_SOURCES.has(c.evidence.source)) return undefined;
  const o = c.oracle;
  if (o.kind === 'throws') return o.error;
  return o.expected;
}

/** The value the code produced, as the runner's assertion message shows it (best effort). */
export function observedValue(message: string): string {
  const m = message.replace(/\u001b\[[0-9;]*m/g, '');
  const pick = (re: RegExp) => re.exec(m)?.[1]?.trim();
  const v =
    pick(/Received:\s*(.+)/) ?? // jest
    pick(/^\s*actual:\s*(.+)$/m) ?? // node:test YAML
    pick(/expected (.+?) to (?:be|equal|deeply equal|strictly equal|throw)\b/) ?? // vitest / chai
    pick(/\n\s*\n(.+?) !== /) ?? // node:assert message: `1 !== 2`
    pick(/^E\s+assert (.+?) ==/m) ?? // pytest
    pick(/AssertionError: assert (.+?) ==/) ??
    m.split('\n').map((l) => l.trim()).find((l) => l && !/^(error:|---|\.\.\.)$/.test(l));
  return (v ?? 'no message').slice(0, 200);
}

/** First meaningful line of an error, for short reasons. */
export function firstLine(message: string): string {
  return (message.replace(/\u001b\[[0-9;]*m/g, '').split('\n').map((l) => l.trim()).find((l) => l && !/^(error:\s*\|-?|---|\.\.\.|●.*)$/.test(l)) ?? 'no message').slice(0, 240);
}

function squash(s: string): string {
  return s.replace(/\s+/g, '');
}

/** Does the test body (its name excluded) contain the documented literal as a whole token? Quote style is ignored. */
export function assertsLiteral(testText: string, literal: string): boolean {
  const body = squash(testText.replace(/^\s*[\w.$]+\(\s*(['"`])(?:\\.|(?!\1)[^\\])*\1/, '').replace(/^\s*(async\s+)?def\s+\w+/, ''));
  const lit = squash(literal);
  const forms = new Set([lit]);
  const q = /^(['"])(.*)\1$/.exec(lit);
  if (q) for (const quote of ["'", '"', '`']) forms.add(quote + q[2] + quote);
  const esc = (x: string) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return [...forms].some((f) => new RegExp(`(?<![\\w$.])${esc(f)}(?![\\w$])`).test(body));
}
