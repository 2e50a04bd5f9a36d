// Coverage out: lcov and cobertura files written by istanbul-reports from the verified run's map,
// with paths relative to the workspace so CI tools (Codecov, GitLab, Azure) resolve them.
import { mkdirSync, renameSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import libCoverage from 'istanbul-lib-coverage';
import libReport from 'istanbul-lib-report';
import CoberturaReport from 'istanbul-reports/lib/cobertura';
import LcovOnlyReport from 'istanbul-reports/lib/lcovonly';
import { plainMap, type IstanbulMap } from './units';

export type ReportFormat = 'lcov' | 'cobertura';

/** Writes `map` as `format` to `file` (absolute); `root` is the workspace the paths are relative to. */
export function writeReport(map: IstanbulMap, format: ReportFormat, file: string, root: string): void {
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true });
  const coverageMap = libCoverage.createCoverageMap(map as unknown as libCoverage.CoverageMapData);
  const context = libReport.createContext({ dir, coverageMap, sourceFinder: () => '', defaultSummarizer: 'flat' });
  // istanbul-reports writes relative to its context dir; a temporary name keeps a half-written
  // report from replacing a good one.
  const tmp = `.amtp-${process.pid}-${basename(file)}`;
  const Report = format === 'lcov' ? LcovOnlyReport : CoberturaReport;
  new Report({ file: tmp, projectRoot: root }).execute(context);
  renameSync(join(dir, tmp), file);
}

/** One map from the maps of several runs (hit counts add up). */
export function mergeMaps(maps: IstanbulMap[]): IstanbulMap {
  const merged = libCoverage.createCoverageMap({});
  for (const m of maps) merged.merge(m as unknown as libCoverage.CoverageMapData);
  return plainMap(merged);
}
