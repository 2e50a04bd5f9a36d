// "Adds coverage": a test whose covered units are all covered by the other kept tests is dropped.
//
// Rule (docs/verifier.md): units are statements, branch arms and functions (V8 coverage through
// v8-to-istanbul, keyed by source position) or lines (and arcs, with coverage.py) of the files under
// test, counted BEYOND IMPORT: units that loading the test files with no test run already covers
// (server/src/coverage/loadOnly.ts) are nobody's contribution, so a test that only checks that an
// export exists covers nothing and goes. Each candidate is
// measured alone (the runner's name filter with its case id). Candidates are then visited from the
// most to the least important (P0 first; within a priority, file order) and a test is kept only when
// it covers at least one unit that no test kept before it covers. The kept set therefore covers
// exactly what all candidates covered, and documented P0/P1 behaviour owns the coverage: a P3
// property test that repeats the examples is the one that goes, not the examples.
import { LOAD_ONLY_GREP } from '../coverage/loadOnly';
import { beyondImport, beyondLoad } from '../coverage/beyondImport';
import { mergeMaps } from '../coverage/reports';
import { kindPercents } from '../coverage/units';
import type { VerificationRecord } from '../core/run';
import type { CoverageUnits, RunResult } from '../frameworks/runner';

export interface Candidate {
  id: string;
  priority: string;
  /** position in file order, for a stable tie-break */
  order: number;
  units: CoverageUnits;
}

export function redundant(candidates: Candidate[]): Map<string, string> {
  const covered = new Set<string>();
  const owner = new Map<string, string>();
  const dropped = new Map<string, string>();
  const visit = [...candidates].sort((a, b) => a.priority.localeCompare(b.priority) || a.order - b.order);
  const anyUnits = candidates.some((c) => c.units.size > 0);
  for (const c of visit) {
    if (!c.units.size) {
      // Nothing measured beyond loading: kept only when no test covers anything (then nothing is judged).
      if (anyUnits) dropped.set(c.id, 'adds no coverage: it covers nothing beyond what loading its file covers (an existence-only test)');
      continue;
    }
    const fresh = [...c.units].filter((u) => !covered.has(u));
    if (fresh.length || covered.size === 0) {
      for (const u of c.units)
        if (!covered.has(u)) {
          covered.add(u);
          owner.set(u, c.id);
        }
      continue;
    }
    const by = [...new Set([...c.units].map((u) => owner.get(u)!))];
    dropped.set(
      c.id,
      `adds no coverage: its ${c.units.size} covered unit(s) are all covered by ${by.length} kept test(s) of higher or equal priority (${by.slice(0, 3).join(', ')}${by.length > 3 ? ', …' : ''})`,
    );
  }
  return dropped;
}

export function union(sets: Iterable<CoverageUnits>): CoverageUnits {
  const u: CoverageUnits = new Set();
  for (const s of sets) for (const x of s) u.add(x);
  return u;
}

export function percent(covered: number, universe: number): number | undefined {
  return universe ? Math.round((1000 * covered) / universe) / 10 : undefined;
}

/** Runs the test files with a filter that matches no test (all in one process, else each alone): the units loading alone covers. */
export async function loadOnlyUnits(
  run: (files: { path: string; ids: string[] }[], opts: { grep: string; coverageOf: string[] }) => Promise<{ result: RunResult }>,
  files: string[],
  targets: string[],
): Promise<CoverageUnits> {
  const opts = { grep: LOAD_ONLY_GREP, coverageOf: targets };
  if (files.length > 1) {
    const { result } = await run(
      files.map((path) => ({ path, ids: [] })),
      opts,
    );
    if (!result.timedOut && !result.fileErrors.length && result.units) return result.units;
  }
  const loaded: CoverageUnits = new Set();
  for (const file of files) {
    const { result } = await run([{ path: file, ids: [] }], opts);
    for (const u of result.units ?? []) loaded.add(u);
  }
  return loaded;
}

/** Candidates with only the units they cover beyond loading. */
export function beyondImportCandidates(candidates: Candidate[], loaded: CoverageUnits): Candidate[] {
  return candidates.map((c) => ({ ...c, units: beyondLoad(c.units, loaded) }));
}

/** The kept suite's figures: statements, branches, beyond import (when the load-only run was made), tool and map. */
export function finalCoverage(
  runs: RunResult[],
  covered: CoverageUnits,
  loaded: CoverageUnits | undefined,
  universe: CoverageUnits,
): Partial<NonNullable<VerificationRecord['coverage']>> {
  const { statements, branches } = kindPercents(covered, universe);
  const beyond = loaded ? beyondImport(covered, loaded, universe).percent : undefined;
  const maps = runs.flatMap((r) => (r.map ? [r.map] : []));
  const tool = runs.find((r) => r.coverageTool)?.coverageTool;
  const out: Partial<NonNullable<VerificationRecord['coverage']>> = {};
  if (statements !== undefined) out.statements = statements;
  if (branches !== undefined) out.branches = branches;
  if (beyond !== undefined) out.beyondImport = beyond;
  if (tool) out.tool = tool;
  if (maps.length) out.map = mergeMaps(maps) as Record<string, unknown>;
  return out;
}
