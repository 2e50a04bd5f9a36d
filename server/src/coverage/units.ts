// Coverage units from an istanbul coverage map (the format v8-to-istanbul and runner providers write).
// Units are keyed by source position, not by istanbul's ids: V8 numbers branches and functions in the
// order it reports its ranges, which differs between runs that execute different code.
import { isAbsolute, relative } from 'node:path';
import { statementPieces } from './lineSegments';

interface Loc {
  start: { line: number; column: number | null };
  end?: { line: number; column: number | null };
}

export interface IstanbulFile {
  path?: string;
  s: Record<string, number>;
  b: Record<string, number[]>;
  f: Record<string, number>;
  statementMap: Record<string, Loc>;
  branchMap: Record<string, { locations: Loc[] }>;
  fnMap: Record<string, { decl?: Loc; loc?: Loc }>;
}

export type IstanbulMap = Record<string, IstanbulFile>;

/** Covered units plus the full universe, keyed `file:s@line:col`, `file:b@…`, `file:f@…`. */
export interface MeasuredUnits {
  units: Set<string>;
  unitKeys: Set<string>;
  /** statement coverage in percent (one decimal), undefined when there are no statements */
  statements?: number;
  /** branch-arm coverage in percent, undefined when there are no branches */
  branches?: number;
}

const at = (l: Loc | undefined) => (l ? `${l.start.line}:${l.start.column ?? 0}` : '?');

export function relOf(dir: string, file: string): string {
  return (isAbsolute(file) ? relative(dir, file) : file).split('\\').join('/');
}

/** The workspace-relative file a unit key belongs to (`lib/x.js:s@3:4` → `lib/x.js`, `x.py:l3` → `x.py`). */
export function unitFile(unit: string): string {
  return unit.slice(0, unit.search(/:(?:s@|b@|f@|l-?\d|a-?\d)/));
}

function pct(covered: number, total: number): number | undefined {
  return total ? Math.round((1000 * covered) / total) / 10 : undefined;
}

/** `cut`: a line's statements cut at its functions (./lineSegments.ts); off for istanbul's own counters, which are exact. */
export function unitsOf(map: IstanbulMap, dir: string, cut = true): MeasuredUnits {
  const { units, unitKeys } = unitSets(map, dir, cut);
  return { units, unitKeys, ...kindPercents(units, unitKeys) };
}

/** The covered units and every unit's key, without the percentages (a per-test take needs only the units). */
export function unitSets(map: IstanbulMap, dir: string, cut = true): { units: Set<string>; unitKeys: Set<string> } {
  const units = new Set<string>();
  const unitKeys = new Set<string>();
  const add = (key: string, n: number) => {
    unitKeys.add(key);
    if (n > 0) units.add(key);
  };
  for (const [f, d] of Object.entries(map)) {
    const rel = relOf(dir, f);
    // A line holding several functions (minified code) is several statements (./lineSegments.ts).
    if (cut) for (const [pos, covered] of statementPieces(d)) add(`${rel}:s@${pos}`, covered ? 1 : 0);
    else for (const [id, n] of Object.entries(d.s)) add(`${rel}:s@${at(d.statementMap[id])}`, n);
    for (const [id, ns] of Object.entries(d.b)) ns.forEach((n, i) => add(`${rel}:b@${at(d.branchMap[id]?.locations[i])}`, n));
    for (const [id, n] of Object.entries(d.f)) add(`${rel}:f@${at(d.fnMap[id]?.decl ?? d.fnMap[id]?.loc)}`, n);
  }
  return { units, unitKeys };
}

/** Statement (JS `:s@`, Python `:l`) and branch (JS `:b@`, Python `:a`) percentages of a unit set. */
export function kindPercents(units: Set<string>, unitKeys: Set<string>): { statements?: number; branches?: number } {
  const count = (s: Set<string>, re: RegExp) => [...s].filter((k) => re.test(k)).length;
  const st = /:(s@|l\d)/;
  const br = /:(b@|a-?\d)/;
  const statements = pct(count(units, st), count(unitKeys, st));
  const branches = pct(count(units, br), count(unitKeys, br));
  return { ...(statements !== undefined ? { statements } : {}), ...(branches !== undefined ? { branches } : {}) };
}

/** A coverage map as plain data (CoverageMap.toJSON keeps FileCoverage objects, which merge() refuses). */
export function plainMap(map: { files(): string[]; fileCoverageFor(f: string): { toJSON(): object } }): IstanbulMap {
  return Object.fromEntries(map.files().map((f) => [f, map.fileCoverageFor(f).toJSON()])) as IstanbulMap;
}
