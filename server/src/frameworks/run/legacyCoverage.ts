// Coverage measurement of a run: c8 around the JS runners, coverage.py around pytest. Moved here
// verbatim from frameworks/runner.ts (the coverage rewrite replaces this file); runTests() calls it.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CoverageUnits, RunOptions } from './results';
import { bin, relOf } from './results';
import { exec } from './spawn';

export function hasPythonModule(python: string, module: string): boolean {
  return spawnSync(python, ['-c', `import ${module}`], { stdio: 'ignore' }).status === 0;
}

export function c8Wrap(cmd: string, args: string[], covDir: string, opts: RunOptions): [string, string[]] {
  const include = (opts.coverageOf ?? []).flatMap((f) => ['--include', f]);
  return [process.execPath, [bin(opts, 'c8/bin/c8.js'), '--reporter=json-summary', '--reporter=json', '--report-dir', covDir, '--temp-directory', join(covDir, 'tmp'), '--exclude-after-remap', ...include, '--', cmd, ...args]];
}

export function coveragePy(args: string[], opts: RunOptions): [string, string[]] {
  const include = (opts.coverageOf ?? []).join(',');
  return [opts.python ?? 'python3', ['-m', 'coverage', 'run', '--branch', `--include=${include}`, ...args]];
}

export async function pyCoverage(dir: string, out: string, opts: RunOptions): Promise<{ statements?: number; units?: CoverageUnits; allUnits?: number; unitKeys?: CoverageUnits }> {
  const file = join(out, 'coverage.json');
  await exec(opts.python ?? 'python3', ['-m', 'coverage', 'json', '-o', file], dir, { COVERAGE_FILE: join(out, '.coverage') }, 60_000);
  if (!existsSync(file)) return {};
  const report = JSON.parse(readFileSync(file, 'utf8')) as {
    totals: { percent_covered: number; covered_lines: number; num_statements: number };
    files: Record<string, { executed_lines: number[]; missing_lines: number[]; executed_branches?: [number, number][]; missing_branches?: [number, number][] }>;
  };
  const units: CoverageUnits = new Set();
  const keys: CoverageUnits = new Set();
  for (const [f, d] of Object.entries(report.files)) {
    const rel = relOf(dir, f);
    for (const l of d.executed_lines) units.add(`${rel}:l${l}`);
    for (const [a, b] of d.executed_branches ?? []) units.add(`${rel}:a${a}>${b}`);
    for (const l of d.missing_lines) keys.add(`${rel}:l${l}`);
    for (const [a, b] of d.missing_branches ?? []) keys.add(`${rel}:a${a}>${b}`);
  }
  for (const u of units) keys.add(u);
  const all = keys.size;
  // percent of statements only, as before (--branch would otherwise mix in branches)
  const t = report.totals;
  const statements = t.num_statements ? (100 * t.covered_lines) / t.num_statements : undefined;
  return { statements, units, allUnits: all, unitKeys: keys };
}

interface Loc { start: { line: number; column: number | null } }
interface IstanbulFile {
  s: Record<string, number>;
  b: Record<string, number[]>;
  f: Record<string, number>;
  statementMap: Record<string, Loc>;
  branchMap: Record<string, { locations: Loc[] }>;
  fnMap: Record<string, { decl?: Loc; loc?: Loc }>;
}

// Units are keyed by source position, not by istanbul's ids: c8 numbers branches and functions in the
// order V8 reports its ranges, which differs between runs that execute different code.
const at = (l: Loc | undefined) => (l ? `${l.start.line}:${l.start.column ?? 0}` : '?');

export function c8Coverage(covDir: string, dir: string): { statements?: number; units?: CoverageUnits; allUnits?: number; unitKeys?: CoverageUnits } {
  const summaryFile = join(covDir, 'coverage-summary.json');
  let statements: number | undefined;
  if (existsSync(summaryFile)) {
    const summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as { total: { statements: { pct: number | string } } };
    const pct = Number(summary.total.statements.pct);
    statements = Number.isFinite(pct) ? pct : undefined;
  }
  const finalFile = join(covDir, 'coverage-final.json');
  if (!existsSync(finalFile)) return { statements };
  const final = JSON.parse(readFileSync(finalFile, 'utf8')) as Record<string, IstanbulFile>;
  const units: CoverageUnits = new Set();
  const allKeys: CoverageUnits = new Set();
  for (const [f, d] of Object.entries(final)) {
    const rel = relOf(dir, f);
    const keys = new Set<string>();
    const add = (key: string, n: number) => { keys.add(key); if (n > 0) units.add(key); };
    for (const [id, n] of Object.entries(d.s)) add(`${rel}:s@${at(d.statementMap[id])}`, n);
    for (const [id, ns] of Object.entries(d.b)) ns.forEach((n, i) => add(`${rel}:b@${at(d.branchMap[id]?.locations[i])}`, n));
    for (const [id, n] of Object.entries(d.f)) add(`${rel}:f@${at(d.fnMap[id]?.decl ?? d.fnMap[id]?.loc)}`, n);
    for (const k of keys) allKeys.add(k);
  }
  return { statements, units, allUnits: allKeys.size, unitKeys: allKeys };
}

