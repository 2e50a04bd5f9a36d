// What a person changed in a test AMTP wrote (issue 27: tests a person edited teach the next run): a
// one-line summary of the lines that differ, and, when the change replaced the expected value of the
// case's call with another literal, that correction as an oracle for later cases of the same call.
import type { TestCase } from '../contracts/types';
import { parseLiteral, toJs, toPython, type LiteralLang } from '../frameworks/literals';

/**
 * The same test apart from layout, as a formatter (the project's own Prettier, run by AMTP or the
 * person) changes it: spacing, semicolons, quote characters, trailing commas, an arrow's parentheses.
 */
export function sameTest(a: string, b: string): boolean {
  const norm = (s: string) =>
    s
      .replace(/["`]/g, "'")
      .replace(/[\s;]+/g, '')
      .replace(/,(?=[)\]}])/g, '')
      .replace(/\((\w+)\)=>/g, '$1=>');
  return norm(a) === norm(b);
}

function changedLines(before: string, after: string): { removed: string[]; added: string[] } {
  const lines = (s: string) => s.split('\n').map((l) => l.trim());
  const b = lines(before);
  const a = lines(after);
  const inB = new Set(b);
  const inA = new Set(a);
  return { removed: b.filter((l) => l && !inA.has(l)), added: a.filter((l) => l && !inB.has(l)) };
}

/** "changed by hand: `old line` → `new line`", the first two of each side, for a lesson. */
export function editSummary(before: string, after: string): string {
  const { removed, added } = changedLines(before, after);
  const side = (ls: string[]) =>
    ls.length
      ? ls
          .slice(0, 2)
          .map((l) => `\`${l}\``)
          .join(' / ') + (ls.length > 2 ? ` (+${ls.length - 2})` : '')
      : 'nothing';
  return `changed by hand: ${side(removed)} → ${side(added)}`;
}

/**
 * The person's value for the case's call: one line changed, and what differs on it is the expected
 * literal the case planned, replaced by another literal. Undefined for any other edit.
 */
export function correctionOf(before: string, after: string, c: Pick<TestCase, 'oracle'>): { call: string; expected: string } | undefined {
  const o = c.oracle;
  if (!o?.call || o.expected === undefined || (o.kind !== 'equals' && o.kind !== 'deep_equals')) return undefined;
  const { removed, added } = changedLines(before, after);
  if (removed.length !== 1 || added.length !== 1) return undefined;
  const lang: LiteralLang = o.language === 'python' ? 'python' : 'javascript';
  const print = (text: string) => {
    const lit = parseLiteral(text.trim(), lang);
    return lit && (lang === 'python' ? toPython(lit) : toJs(lit));
  };
  const planned = print(o.expected);
  if (planned === undefined) return undefined;
  const now = replacedLiteral(removed[0], added[0], (text) => print(text) === planned);
  const value = now === undefined ? undefined : print(now);
  return value !== undefined && value !== planned ? { call: o.call, expected: now!.trim() } : undefined;
}

/**
 * What took the place of the span of `was` that `isPlanned` accepts, when the rest of the line is the
 * same: the span starts within the lines' common start and ends within their common end.
 */
function replacedLiteral(was: string, now: string, isPlanned: (text: string) => boolean): string | undefined {
  let head = 0;
  while (head < was.length && head < now.length && was[head] === now[head]) head++;
  let tail = 0;
  while (tail < was.length - head && tail < now.length - head && was[was.length - 1 - tail] === now[now.length - 1 - tail]) tail++;
  for (let start = head; start >= 0; start--)
    for (let end = was.length - tail; end <= was.length; end++)
      if (end > start && isPlanned(was.slice(start, end))) return now.slice(start, now.length - (was.length - end));
  return undefined;
}
