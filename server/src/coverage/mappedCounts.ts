// V8's counts at the offsets of a file that ran through a source map (vitest's transformed modules,
// tsx, AMTP's loader). An offset of the file is placed in the generated code through the map (the
// first mapping at or after it). A generator maps a statement from the whitespace before it, where
// V8's range of a branch starts at the token: so the count is that of a V8 range starting between the
// mapping and the token (the whitespace skipped where the generated code is known; else one column,
// or up to the line's next mapping from a line's start), else of the innermost range around the
// token, as for a file that ran as itself (statements.ts countAt). So statements and branch arms are read from the file's
// syntax tree with one rule either way (branches.ts), never from V8's blocks mapped back, which split
// `a && b` into blocks istanbul does not count and land off by a few columns.
// Where the runner's map leads past the file to sources the package does not ship (vite chains the
// file's own map: superstruct@2.0.2's dist/index.mjs → ../src/*.ts), an offset of the file goes
// through its own map to those sources first, then through the runner's map to the generated code.
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  decodedMappings,
  generatedPositionFor,
  GREATEST_LOWER_BOUND,
  LEAST_UPPER_BOUND,
  originalPositionFor,
  TraceMap,
  type SourceMapInput,
} from '@jridgewell/trace-mapping';
import { sourcePath, type ShippedMap } from './shippedMaps';
import { countAt, type V8Range } from './statements';
import { lineOf } from '../util/lineOf';

/** What V8 ran: the generated code's line lengths, the offset of its first line in the script (a runner's wrapper), its map. */
export interface Generated {
  /** the generated code, where it is known (a module run through node:vm) */
  code?: string;
  lineLengths: number[];
  wrapper: number;
  map: object;
  /** the file's own map, where `map` leads to its sources rather than to the file (./shippedMaps.ts) */
  shipped?: ShippedMap;
}

type Place = (line: number, column: number) => { line: number | null; column: number | null } | undefined;

function lineStarts(lengths: number[]): number[] {
  const starts: number[] = [];
  let at = 0;
  for (const n of lengths) {
    starts.push(at);
    at += n + 1;
  }
  return starts;
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

/**
 * Where a 0-based line and column of `path` is in the generated code: through the runner's map, or
 * through the file's own map to its sources and from there through the runner's map (`shipped`).
 */
function placer(tm: TraceMap, path: string, shipped: ShippedMap | undefined): Place | undefined {
  if (!shipped) {
    const source = sourceName(tm, path);
    if (source === undefined) return undefined;
    return (line, column) => generatedPositionFor(tm, { source, line: line + 1, column, bias: LEAST_UPPER_BOUND });
  }
  let own: TraceMap;
  try {
    own = new TraceMap(shipped.map as SourceMapInput, shipped.url);
  } catch {
    return undefined;
  }
  const names = new Map(tm.resolvedSources.map((s, i) => [sourcePath(s) ?? s, tm.sources[i]]));
  return (line, column) => {
    const at = { line: line + 1, column };
    // the mapping at or before the column, else the line's first after it
    let o = originalPositionFor(own, { ...at, bias: GREATEST_LOWER_BOUND });
    if (o.source === null) o = originalPositionFor(own, { ...at, bias: LEAST_UPPER_BOUND });
    const source = o.source === null ? undefined : names.get(sourcePath(o.source) ?? o.source);
    if (source == null || o.line === null) return undefined;
    return generatedPositionFor(tm, { source, line: o.line, column: o.column, bias: LEAST_UPPER_BOUND });
  };
}

/** The V8 count at each offset of `path` (0 where the map places nothing), or undefined when the map does not name the file. */
export function mappedCountAt(path: string, generated: Generated, ranges: V8Range[]): ((offset: number) => number) | undefined {
  let tm: TraceMap;
  try {
    tm = new TraceMap(generated.map as SourceMapInput, pathToFileURL(path).href);
  } catch {
    return undefined;
  }
  const place = placer(tm, path, generated.shipped);
  if (!place) return undefined;
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
    const p = place(line, offset - own[line]);
    if (!p || p.line === null || p.column === null || p.line > gen.length) return 0;
    const base = generated.wrapper + gen[p.line - 1];
    const from = base + p.column;
    const token = tokenStart(from - generated.wrapper, p.line - 1, p.column) + generated.wrapper;
    const starting = byStart.filter((r) => r.startOffset >= from && r.startOffset <= token).pop();
    return starting ? starting.count : inner(token);
  };
}
