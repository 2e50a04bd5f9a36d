// The slot coverage rounds leave for mutation testing (the mutation engine of issue 23 fills it;
// nothing here builds mutants): an optional provider that names the mutants of a function the kept
// tests let survive, and says which of them a new test kills. Without one, coverage alone guides
// the rounds and decides which new tests stay.

export interface SurvivingMutant {
  /** stable across runs of the same code and tests */
  id: string;
  /** a unified diff of the function's source: what the mutant changes */
  diff: string;
}

interface MutantTarget {
  /** workspace-relative module */
  file: string;
  symbol: string;
  /** the function's lines */
  line: number;
  endLine: number;
}

export interface MutantProvider {
  /** the function's mutants no kept test kills */
  survivors(target: MutantTarget): Promise<SurvivingMutant[]>;
  /** of `mutants`, the ones the test `caseId` in `testFile` kills */
  kills(testFile: string, caseId: string, mutants: SurvivingMutant[]): Promise<string[]>;
}
