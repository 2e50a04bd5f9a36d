// Python coverage: coverage.py when the interpreter has it (lines and arcs), otherwise the stdlib
// sys.settrace harness AMTP ships (server/src/frameworks/assets/pytrace.py: lines only), so a
// project with nothing installed is still measured.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { kindPercents, relOf, type MeasuredUnits } from './units';

interface LineReport {
  files: Record<
    string,
    { executed_lines: number[]; missing_lines: number[]; executed_branches?: [number, number][]; missing_branches?: [number, number][] }
  >;
}

/**
 * The command that runs `python -m pytest ARGS` under the fallback tracer, writing `outFile`.
 * `tracer` is the text of pytrace.py (the caller reads it with frameworks/assets.ts: this folder sits
 * below frameworks/ in the layering).
 */
export function tracedPytest(
  python: string,
  tracer: string,
  outFile: string,
  files: string[],
  dir: string,
  pytestArgs: string[],
): [string, string[]] {
  return [python, ['-c', tracer, outFile, files.map((f) => join(dir, f)).join(','), '-m', 'pytest', ...pytestArgs]];
}

/** Units from a coverage.py JSON report or the tracer's report (same shape for lines). */
export function pythonUnits(file: string, dir: string): MeasuredUnits | undefined {
  if (!existsSync(file)) return undefined;
  const report = JSON.parse(readFileSync(file, 'utf8')) as LineReport;
  const units = new Set<string>();
  const unitKeys = new Set<string>();
  for (const [f, d] of Object.entries(report.files)) {
    const rel = relOf(dir, f);
    for (const l of d.executed_lines) units.add(`${rel}:l${l}`);
    for (const [a, b] of d.executed_branches ?? []) units.add(`${rel}:a${a}>${b}`);
    for (const l of d.missing_lines) unitKeys.add(`${rel}:l${l}`);
    for (const [a, b] of d.missing_branches ?? []) unitKeys.add(`${rel}:a${a}>${b}`);
  }
  for (const u of units) unitKeys.add(u);
  return { units, unitKeys, ...kindPercents(units, unitKeys) };
}
