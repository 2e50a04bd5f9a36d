// What the kept suite leaves uncovered, per function: coverage units (statements `file:s@L:C`,
// branch arms `file:b@L:C`, functions `file:f@L:C`; Python lines `file:lL` and arcs `file:aA>B`)
// that some run reported but no kept test covers, mapped to the innermost symbol whose declaration
// holds their line (the crawler's symbols[].line..end_line). Coverage rounds (rounds.ts) send these.
import type { CrawlerOutput, SymbolInfo } from '../contracts/types';
import type { CoverageUnits } from '../frameworks/runner';

export interface UncoveredFunction {
  file: string;
  symbol: SymbolInfo;
  lines: number[];
  branches: number[];
}

interface Unit {
  file: string;
  kind: 'line' | 'branch';
  line: number;
}

/** `src/x.js:s@12:4` → a statement at line 12; `src/x.js:b@14:8` → a branch arm at 14; `m.py:a12>-3` → a branch from line 12. */
export function parseUnit(key: string): Unit | undefined {
  const m = /^(.*):(s@|b@|f@|l|a)(-?\d+)/.exec(key);
  if (!m) return undefined;
  const line = Math.abs(Number(m[3]));
  if (!line) return undefined;
  return { file: m[1], kind: m[2] === 'b@' || m[2] === 'a' ? 'branch' : 'line', line };
}

/** Functions with uncovered lines or branch arms, the most uncovered first (file order on ties). */
export function uncoveredFunctions(map: CrawlerOutput, universe: CoverageUnits, covered: CoverageUnits): UncoveredFunction[] {
  const byKey = new Map<string, UncoveredFunction>();
  for (const key of universe) {
    if (covered.has(key)) continue;
    const u = parseUnit(key);
    if (!u) continue;
    const owner = ownerOf(map, u.file, u.line);
    if (!owner) continue;
    const k = `${u.file}#${owner.name}`;
    const f = byKey.get(k) ?? { file: u.file, symbol: owner, lines: [], branches: [] };
    (u.kind === 'line' ? f.lines : f.branches).push(u.line);
    byKey.set(k, f);
  }
  const all = [...byKey.values()].map((f) => ({ ...f, lines: uniqueSorted(f.lines), branches: uniqueSorted(f.branches) }));
  const weight = (f: UncoveredFunction) => f.lines.length + f.branches.length;
  const order = (f: UncoveredFunction) => `${f.file}\n${String(f.symbol.line ?? 0).padStart(8, '0')}`;
  return all.sort((a, b) => weight(b) - weight(a) || (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
}

/** The innermost function or method of the file whose lines hold `line` (a method before its class). */
function ownerOf(map: CrawlerOutput, file: string, line: number): SymbolInfo | undefined {
  const key = map.key_files.find((k) => k.path === file);
  let best: SymbolInfo | undefined;
  for (const s of key?.symbols ?? []) {
    if (!s.line || !s.end_line || line < s.line || line > s.end_line) continue;
    if (!best || s.end_line - s.line < best.end_line! - best.line!) best = s;
  }
  return best;
}

function uniqueSorted(xs: number[]): number[] {
  return [...new Set(xs)].sort((a, b) => a - b);
}
