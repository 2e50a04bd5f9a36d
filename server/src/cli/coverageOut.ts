// Coverage out of a finished run: --lcov / --cobertura files from the kept suite's coverage map
// (server/src/coverage/reports.ts), the --min-coverage target (exit 5 when not met, docs/ci.md) and
// the --min-mutation-score target (exit 6 when not met, docs/mutation.md).
import * as path from 'node:path';
import { UsageError } from '../core/errors';
import type { RunRecord } from '../core/run';
import { writeReport } from '../coverage/reports';
import type { IstanbulMap } from '../coverage/units';
import type { RunSummary } from '../pipeline/summary';
import { err } from './io';

export interface CoverageOut {
  lcov?: string;
  cobertura?: string;
  min?: number;
  minMutation?: number;
}

/** Parses --min-coverage (or another percent flag); a clear error for anything but a number from 0 to 100. */
export function minCoverageArg(v: string | undefined, flag = '--min-coverage'): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n) || n < 0 || n > 100) throw new UsageError(`${flag} takes a percent from 0 to 100, not "${v}"`);
  return n;
}

/** Which target a completed run missed: coverage (exit 5) first, then the mutation score (exit 6). */
export type MissedTarget = 'coverage' | 'mutation' | undefined;

/** Writes the requested files and records the targets in the summary. */
export function applyCoverageOut(run: RunRecord, s: RunSummary, workspace: string, o: CoverageOut): MissedTarget {
  const coverageMissed = applyCoverageTarget(run, s, workspace, o);
  const mutationMissed = applyMutationTarget(s, o.minMutation);
  return coverageMissed ? 'coverage' : mutationMissed ? 'mutation' : undefined;
}

function applyMutationTarget(s: RunSummary, min: number | undefined): boolean {
  if (min === undefined) return false;
  const m = s.verification?.mutation;
  const met = m?.score !== undefined && m.score >= min;
  if (m) m.target = { min, met };
  if (!met)
    err(
      `amtp: mutation score ${m?.score ?? 'not measured'}${m?.score !== undefined ? '%' : ''} is below --min-mutation-score ${min}%${m?.status === 'skipped' ? ` (${m.reason ?? 'mutation skipped'})` : ''}`,
    );
  return !met;
}

function applyCoverageTarget(run: RunRecord, s: RunSummary, workspace: string, o: CoverageOut): boolean {
  const cov = s.verification?.coverage;
  const map = run.verification?.coverage?.map as IstanbulMap | undefined;
  const written: string[] = [];
  for (const [format, file] of [
    ['lcov', o.lcov],
    ['cobertura', o.cobertura],
  ] as const) {
    if (!file) continue;
    if (!map) {
      err(`amtp: --${format}: no coverage map to write (${cov?.skipped ?? 'the run measured no JavaScript coverage'})`);
      continue;
    }
    writeReport(map, format, path.resolve(file), workspace);
    written.push(file);
  }
  if (cov && written.length) cov.written = written;
  if (o.min === undefined) return false;
  const met = cov?.statements !== undefined && cov.statements >= o.min;
  if (cov) cov.target = { min: o.min, met };
  if (!met)
    err(
      `amtp: statement coverage ${cov?.statements ?? 'not measured'}${cov?.statements !== undefined ? '%' : ''} is below --min-coverage ${o.min}%`,
    );
  return !met;
}
