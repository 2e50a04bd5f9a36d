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
  const naming = lines.map((l) => named.some((re) => re.test(l)));
  // a result written on the line after the call (`// => grouped`) belongs to it
  const keep = withDeclarations(
    lines,
    naming.map((n, i) => n || (i > 0 && naming[i - 1] && RESULT_LINE.test(lines[i]))),
  );
  const kept = lines.filter((_, i) => keep[i]);
  const left = lines.filter((l, i) => !keep[i] && l.trim()).length;
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

const RESULT_LINE = /^\s*(?:\/\/|#)\s*=>/;

const DECLARED = /^\s*(?:(?:const|let|var)\s+(?:\{([^}]*)\}|\[([^\]]*)\]|([A-Za-z_$][\w$]*))|([A-Za-z_][\w]*)\s*=[^=])/;

/** Line i and the lines after it up to where its brackets close (a multi-line literal). */
function statementEnd(lines: string[], i: number): number {
  let depth = 0;
  for (let j = i; j < lines.length; j++) {
    for (const ch of lines[j]) depth += '([{'.includes(ch) ? 1 : ')]}'.includes(ch) ? -1 : 0;
    if (depth <= 0) return j;
  }
  return lines.length - 1;
}

/**
 * The kept lines and every earlier statement that declares a name they use (`const list = [1, 2, 3];`
 * before `reverseInPlace(list)`), its continuation lines included: an excerpt that lost them runs
 * into "list is not defined".
 */
function withDeclarations(lines: string[], keep: boolean[]): boolean[] {
  const out = [...keep];
  for (let changed = true; changed;) {
    changed = false;
    const used = new Set(lines.filter((_, i) => out[i]).flatMap((l) => l.match(/[A-Za-z_$][\w$]*/g) ?? []));
    for (let i = 0; i < lines.length; i++) {
      const m = out[i] ? null : DECLARED.exec(lines[i]);
      const names = m ? (m[1] ?? m[2] ?? m[3] ?? m[4] ?? '').split(',').map((n) => n.split(':').pop()!.trim()) : [];
      if (!names.some((n) => n && used.has(n))) continue;
      const end = statementEnd(lines, i);
      for (let j = i; j <= end; j++) out[j] = true;
      changed = true;
    }
  }
  return out;
}
