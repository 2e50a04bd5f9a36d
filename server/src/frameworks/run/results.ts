// What a test run returns, and what each framework's runner (frameworks/run/*.ts) parses from its
// machine-readable report. Shared by frameworks/runner.ts, the verifier and the report parsers.
import type { IstanbulMap } from '../../coverage/units';
import { isAbsolute, relative } from 'node:path';

/** One test as the runner reported it. `name` is the full name (describe titles included). */
export interface TestOutcome {
  name: string;
  status: 'passed' | 'failed' | 'skipped';
  /** the whole failure message (all its lines), for a failed test */
  message?: string;
  /**
   * what the failing assertion expected and got, as literals (a string quoted, a number bare:
   * ./reportedValues.ts), both or neither: only where the report carries them without loss
   */
  expected?: string;
  actual?: string;
  /** workspace-relative, when the runner says */
  file?: string;
}

/** Covered coverage units: `file:s@line:col` statements, `file:b@line:col` branch arms, `file:f@line:col` functions (Python: `l<n>`, `a<from>><to>`). */
export type CoverageUnits = Set<string>;

export interface RunResult {
  total: number;
  passed: number;
  failed: number;
  /** statement coverage in percent of the measured files, when asked for and measurable */
  statements?: number;
  /** branch-arm coverage in percent (JavaScript; coverage.py arcs), when measurable */
  branches?: number;
  /** the istanbul coverage map of the measured files (JavaScript), for lcov/cobertura out */
  map?: IstanbulMap;
  /** what measured it: 'node (v8)', 'jest (istanbul)', 'coverage.py', 'amtp trace (lines)' */
  coverageTool?: string;
  /** covered units, when coverage was asked for and measurable */
  units?: CoverageUnits;
  /** every unit of the measured files (covered or not), for percentages */
  allUnits?: number;
  /** the keys of those units (a stable denominator across runs is their union) */
  unitKeys?: CoverageUnits;
  /** with `perTest`, where the runner gives it: each test's covered units (by case id) and what loading covered */
  perTest?: { byTest: Map<string, CoverageUnits>; load: CoverageUnits };
  output: string;
  /** per-test results, in report order */
  tests: TestOutcome[];
  /** files that failed before any of their tests ran (syntax error, failing import) */
  fileErrors: { file: string; message: string }[];
  timedOut: boolean;
  cancelled: boolean;
  /** the process group leader's pid (the group id) */
  pid?: number;
  exitCode: number | null;
}

export interface RunOptions {
  /** a directory whose node_modules holds the runners */
  binDir: string;
  /** extra CLI args (e.g. jest --config; node-test: node options before --test) */
  args?: string[];
  /** measure coverage of these workspace-relative files with c8 (coverage.py for pytest) */
  coverageOf?: string[];
  python?: string;
  env?: Record<string, string>;
  timeoutMs?: number;
  /** with `coverageOf`: each test's coverage from this one process, where the runner allows (RunResult.perTest) */
  perTest?: boolean;
  /** run only the tests of these names (their own title, or Python function name): frameworks/caseMap.ts namesOfCases */
  grep?: string | string[];
  signal?: AbortSignal;
  /** told the process group id as soon as the runner starts */
  onSpawn?: (pid: number) => void;
}

/** The part of a RunResult a framework's report gives. */
export type Parsed = Pick<RunResult, 'total' | 'passed' | 'failed' | 'tests' | 'fileErrors'>;

export const NO_RESULTS: Parsed = Object.freeze({ total: 0, passed: 0, failed: 0, tests: [], fileErrors: [] }) as Parsed;

/** Counts from the tests themselves (reports whose totals are absent or count differently). */
export function counted(tests: TestOutcome[], fileErrors: Parsed['fileErrors']): Parsed {
  const ran = tests.filter((t) => t.status !== 'skipped');
  const failed = ran.filter((t) => t.status === 'failed').length;
  return { total: ran.length, passed: ran.length - failed, failed, tests, fileErrors };
}

export function relOf(dir: string, file: string): string {
  return (isAbsolute(file) ? relative(dir, file) : file).split('\\').join('/');
}
