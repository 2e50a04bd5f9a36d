// Coverage out of a finished run: --lcov / --cobertura files from the kept suite's coverage map
// (server/src/coverage/reports.ts) and the --min-coverage target (exit 5 when not met, docs/ci.md).
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
}

/** Parses --min-coverage; a clear error for anything but a number from 0 to 100. */
export function minCoverageArg(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n) || n < 0 || n > 100)
    throw new UsageError(`--min-coverage takes a percent from 0 to 100, not "${v}"`);
  return n;
}

/** Writes the requested files and records the target in the summary; true when a target was missed. */
export function applyCoverageOut(run: RunRecord, s: RunSummary, workspace: string, o: CoverageOut): boolean {
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
