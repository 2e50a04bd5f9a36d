// V8's counts at the offsets of a file that ran through a source map (vitest's transformed modules,
// tsx, AMTP's loader). An offset of the file is placed in the generated code through the map (the
// first mapping at or after it). A generator maps a statement from the whitespace before it, where
// V8's range of a branch starts at the token: so the count is that of a V8 range starting between the
// mapping and the token (the whitespace skipped where the generated code is known; else one column,
// or up to the line's next mapping from a line's start), else of the innermost range around the
// token, as for a file that ran as itself (statements.ts countAt). So statements and branch arms are read from the file's
// syntax tree with one rule either way (branches.ts), never from V8's blocks mapped back, which split
// `a && b` into blocks istanbul does not count and land off by a few columns.
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { decodedMappings, generatedPositionFor, LEAST_UPPER_BOUND, TraceMap, type SourceMapInput } from '@jridgewell/trace-mapping';
import { countAt, type V8Range } from './statements';

/** What V8 ran: the generated code's line lengths, the offset of its first line in the script (a runner's wrapper), its map. */
export interface Generated {
  /** the generated code, where it is known (a module run through node:vm) */
  code?: string;
  lineLengths: number[];
  wrapper: number;
  map: object;
}

function lineStarts(lengths: number[]): number[] {
  const starts: number[] = [];
  let at = 0;
  for (const n of lengths) {
    starts.push(at);
    at += n + 1;
  }
  return starts;
}

/** The 0-based line holding an offset, by binary search of the line starts. */
export function lineOf(starts: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The map's name for `path`: the source that resolves to it (or the only source). */
function sourceName(tm: TraceMap, path: string): string | undefined {
  const resolved = tm.resolvedSources.map((s) => {
    try {
      return s.startsWith('file:') ? fileURLToPath(s) : s;
    } catch {
      return s;
    }
  });
  const i = resolved.indexOf(path);
  if (i >= 0) return tm.sources[i] ?? undefined;
  return tm.sources.length === 1 ? (tm.sources[0] ?? undefined) : undefined;
}

/** The V8 count at each offset of `path` (0 where the map places nothing), or undefined when the map does not name the file. */
export function mappedCountAt(path: string, generated: Generated, ranges: V8Range[]): ((offset: number) => number) | undefined {
  let tm: TraceMap;
  try {
    tm = new TraceMap(generated.map as SourceMapInput, pathToFileURL(path).href);
  } catch {
    return undefined;
  }
  const source = sourceName(tm, path);
  if (source === undefined) return undefined;
  const own = lineStarts(
    readFileSync(path, 'utf8')
      .split('\n')
      .map((l) => l.length),
  );
  const gen = lineStarts(generated.lineLengths);
  const columns = decodedMappings(tm).map((segments) => segments.map((s) => s[0]));
  const inner = countAt(ranges);
  const tokenStart = (at: number, line: number, column: number): number => {
    if (generated.code !== undefined) {
      const skipped = /^\s*/.exec(generated.code.slice(at, at + 200))![0].length;
      return at + skipped;
    }
    if (column > 0) return at + 1;
    const next = columns[line]?.find((c) => c > column) ?? generated.lineLengths[line];
    return at + Math.max(0, next - 1);
  };
  const byStart = [...ranges].sort((a, b) => a.startOffset - b.startOffset || a.endOffset - b.endOffset);
  return (offset) => {
    const line = lineOf(own, offset);
    const p = generatedPositionFor(tm, { source, line: line + 1, column: offset - own[line], bias: LEAST_UPPER_BOUND });
    if (p.line === null || p.line > gen.length) return 0;
    const base = generated.wrapper + gen[p.line - 1];
    const from = base + p.column;
    const token = tokenStart(from - generated.wrapper, p.line - 1, p.column) + generated.wrapper;
    const starting = byStart.filter((r) => r.startOffset >= from && r.startOffset <= token).pop();
    return starting ? starting.count : inner(token);
  };
}
