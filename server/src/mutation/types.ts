// What the mutation engines take and give (docs/mutation.md). One engine per language: StrykerJS's
// instrumenter driven by AMTP's own runners for JavaScript/TypeScript (js/), `ast` operators run by
// pytest for Python (python/). Both place every mutant as a mutant schema (one instrumented copy of
// each module, the active mutant switched at run time) and run many mutants per runner process.
import type { Framework } from '../core/frameworks';
import type { runTests } from '../frameworks/runner';

/** A position in a source file, 1-based line and column (as the StrykerJS report schema has them). */
interface Position {
  line: number;
  column: number;
}

export interface Mutant {
  /** unique within one mutation run (the engine's schema switch id) */
  id: string;
  /** workspace-relative, forward slashes */
  file: string;
  /** the operator: ArithmeticOperator, EqualityOperator, StatementDeletion, … */
  mutator: string;
  /** the source text the mutant replaces, and what it puts there */
  original: string;
  replacement: string;
  start: Position;
  end: Position;
}

/**
 * killed: a test that reaches it fails (timeout: by running too long or looping); survived: every test
 * that reaches it passes; no_coverage: no test reaches it (counted as survived); error: it could not
 * be run (never in the score); not_run: the budget ran out, or it runs while modules load and there was
 * no budget for its own process; filtered: equivalent-mutant noise, never run (`reason`).
 */
type MutantStatus = 'killed' | 'timeout' | 'survived' | 'no_coverage' | 'error' | 'not_run' | 'filtered';

export interface MutantResult extends Mutant {
  status: MutantStatus;
  /** case ids of the tests that kill it (every one of them, not only the first) */
  killedBy: string[];
  /** case ids of the tests that reach it */
  coveredBy: string[];
  /** it runs while modules load: it needs a process of its own */
  static?: boolean;
  /** why it was filtered, not run or errored */
  reason?: string;
}

/** How tests run here: the verifier's run plan, restated so this layer does not import the verifier. */
export interface MutationRunPlan {
  framework: Framework;
  binDir: string;
  args: string[];
  env: Record<string, string>;
  python?: string;
}

interface MutationTest {
  caseId: string;
  /** the workspace-relative test file holding it */
  file: string;
  /** the workspace-relative file under test its case targets */
  target?: string;
}

export interface MutationRequest {
  workspace: string;
  plan: MutationRunPlan;
  /** the tests to run against the mutants (the verifier's tests that passed every run) */
  tests: MutationTest[];
  /** workspace-relative files to mutate, in the order they are worth mutating */
  targets: string[];
  /** wall-clock budget of the whole mutation phase */
  budgetMs: number;
  /** limit of one runner invocation */
  timeoutMs: number;
  signal?: AbortSignal;
  onSpawn?: (pid: number) => void;
  info?: (message: string) => void;
  /** only the mutants with these keys (mutantKey) are run and reported: a new test against known survivors */
  only?: Set<string>;
  /** frameworks/runner.ts runTests unless a caller stands in */
  runTests?: typeof runTests;
  /** what outcomes are cached under (./cache.ts): the workspace's product files (the import graph a file's key follows) and the budget asked for; without them nothing is cached */
  cache?: { sources: string[]; budgetSeconds: number };
}

export interface MutationOutcome {
  /** what made and ran the mutants */
  tool: string;
  mutants: MutantResult[];
  /** files that were mutated, and the ones that could not be (with why) */
  files: string[];
  failedFiles: { file: string; reason: string }[];
  /** tests that could not be run against mutants (with why): the keep rule judges them by coverage alone */
  excludedTests: { caseId: string; reason: string }[];
  /** runner invocations made */
  executions: number;
  elapsedMs: number;
  budgetMs: number;
  /** set when the engine could not run at all */
  skipped?: string;
}

/** A mutant's identity across mutation runs of the same code (engine ids depend on which files were instrumented). */
export function mutantKey(m: Pick<Mutant, 'file' | 'mutator' | 'replacement' | 'start' | 'end'>): string {
  return `${m.file}:${m.start.line}:${m.start.column}-${m.end.line}:${m.end.column}:${m.mutator}:${m.replacement}`;
}
