// Statements finer than a line where a line holds several functions. v8-to-istanbul (Node's V8
// coverage) makes one statement per source line, covered
// when any of it ran. On minified code (a published dist/ is often one line) loading the module
// therefore "covers" every statement, whatever the tests call: 100% statements, and nothing left for
// coverage beyond import to measure. Such a line is cut at the boundaries of the functions on it; each
// piece is a statement, covered when its line ran and the innermost function holding it was called.
// A line with at most one function start is left whole, so ordinary formatting keeps its figures.
import type { IstanbulFile } from './units';

interface Pos {
  line: number;
  column: number;
}
interface Fn {
  start: Pos;
  end: Pos;
  called: boolean;
}

const before = (a: Pos, b: Pos) => a.line < b.line || (a.line === b.line && a.column < b.column);

function functionsOf(d: IstanbulFile): Fn[] {
  const fns: Fn[] = [];
  for (const [id, f] of Object.entries(d.fnMap)) {
    const loc = f.loc ?? f.decl;
    if (!loc?.end) continue;
    fns.push({
      start: { line: loc.start.line, column: loc.start.column ?? 0 },
      end: { line: loc.end.line, column: loc.end.column ?? 0 },
      called: (d.f[id] ?? 0) > 0,
    });
  }
  return fns;
}

/** The innermost function holding `p`, if any (the one starting last among those around it). */
function innermost(fns: Fn[], p: Pos): Fn | undefined {
  let best: Fn | undefined;
  for (const f of fns) if (!before(p, f.start) && before(p, f.end) && (!best || before(best.start, f.start))) best = f;
  return best;
}

/** One statement's pieces as [column, covered]; a single piece at the statement's own column when not cut. */
function lineSegments(d: IstanbulFile, id: string, fns = functionsOf(d)): [number, boolean][] {
  const loc = d.statementMap[id];
  const ran = (d.s[id] ?? 0) > 0;
  const line = loc?.start.line;
  const from = loc?.start.column ?? 0;
  const starts = line === undefined ? [] : fns.filter((f) => f.start.line === line);
  if (starts.length < 2) return [[from, ran]];
  const to = loc.end?.line === line ? (loc.end.column ?? Infinity) : Infinity;
  const cuts = new Set([from]);
  for (const f of fns) {
    if (f.start.line === line && f.start.column > from && f.start.column < to) cuts.add(f.start.column);
    if (f.end.line === line && f.end.column > from && f.end.column < to) cuts.add(f.end.column);
  }
  return [...cuts].sort((a, b) => a - b).map((column) => [column, ran && (innermost(fns, { line, column })?.called ?? true)]);
}

/** Every statement of a file as its pieces: [column-keyed position `line:col`, covered]. */
export function statementPieces(d: IstanbulFile): [string, boolean][] {
  const fns = functionsOf(d);
  const out: [string, boolean][] = [];
  for (const id of Object.keys(d.s)) {
    const line = d.statementMap[id]?.start.line;
    for (const [column, covered] of lineSegments(d, id, fns)) out.push([line === undefined ? '?' : `${line}:${column}`, covered]);
  }
  return out;
}
