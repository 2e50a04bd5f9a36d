// Each generator view carries the documented examples of its own symbols (the is-what relay run,
// F4): a README block that shows 30 functions used to travel whole with one view, where two of
// them were planned, and no other view saw it. Now every view gets, of each example that names one
// of its symbols, the lines that name them: the whole block when it is about those symbols only,
// else an excerpt, its left-out lines said in one comment line (the block's `line` is kept, so a
// case cites the block where the docs have it).
import type { CrawlerOutput } from '../../contracts/types';

type Example = CrawlerOutput['usage_examples'][number];

const originals = new WeakMap<Example, Example>();

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The example as a view of `names` shows it, or undefined when none of its lines names them. */
export function excerptFor(ex: Example, names: Set<string>): Example | undefined {
  const own = ex.symbols.filter((s) => names.has(s) || names.has(s.split('.')[0]));
  if (!own.length) return undefined;
  if (own.length === ex.symbols.length) return ex;
  const lines = ex.code.split('\n');
  const named = own.map((s) => new RegExp(`(^|[^\\w$])${escape(s)}([^\\w$]|$)`));
  const kept: string[] = [];
  let left = 0;
  for (const l of lines) {
    if (named.some((re) => re.test(l))) kept.push(l);
    else if (l.trim()) left++;
  }
  if (!kept.length) return undefined;
  const note = ex.lang === 'python' || ex.lang === 'py' ? '#' : '//';
  const out: Example = {
    ...ex,
    code: [...kept, `${note} … ${left} line(s) of this example about other functions left out`].join('\n'),
    symbols: own,
  };
  originals.set(out, ex);
  return out;
}

/** The examples of a view: one entry per documented block, an excerpt for all the view's names when its units cut it differently. */
export function viewExamples(examples: Example[], names: Set<string>): Example[] {
  const byBlock = new Map<string, Example>();
  for (const e of examples) {
    const key = `${e.source}\n${e.line}`;
    const had = byBlock.get(key);
    if (!had) byBlock.set(key, e);
    else if (had !== e) byBlock.set(key, excerptFor(originals.get(e) ?? e, names) ?? had);
  }
  return [...byBlock.values()];
}
