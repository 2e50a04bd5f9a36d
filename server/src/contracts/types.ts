// The contracts' TypeScript types, derived from the generated ones (generated.ts, from schemas/),
// under the names the code uses. Nothing here is written by hand beyond naming parts.
import type * as G from './generated';

export type {
  CasePlan,
  CrawlerOutput,
  CrawlerPatch,
  EngineerOutput,
  HelperSpan,
  KeyFile,
  Project,
  RepairInput,
  RepairOutput,
  RoundInput,
  RoundOutput,
  SymbolInfo,
  SymbolSource,
  TestBodies,
  TestRuns,
  TypeCheck,
} from './generated';

/** A case as a model may plan it: AMTP computes the id (pipeline/batches). */
export type PlannedCase = G.TestCase;
/** A case in the plan the Test Engineer gets: its id is always set. */
export type TestCase = Omit<G.TestCase, 'id'> & { id: string };
export type TestCases = Omit<G.TestCases, 'cases'> & { cases: TestCase[] };
export type ModuleCharacterizationDoc = Omit<G.Characterization['modules'][number], 'cases'> & { cases: TestCase[] };
export type Characterization = Omit<G.Characterization, 'modules'> & { modules: ModuleCharacterizationDoc[] };
/** A Test Engineer batch: its cases carry their ids (the schema requires them). */
export type EngineerInput = Omit<G.EngineerInput, 'cases'> & { cases: { file: string; case: TestCase }[] };

export type ModuleSystem = G.CrawlerOutput['project']['module_system'];
export type TestSetup = G.CrawlerOutput['test_setup'];
export type DetectedFramework = TestSetup['framework'];
export type ExportStyle = NonNullable<G.SymbolInfo['export_style']>;
export type Priority = G.TestCase['priority'];
export type CaseKind = G.TestCase['kind'];
export type Oracle = NonNullable<G.TestCase['oracle']>;
/** How a test binds a name the documented snippet uses to the module under test. */
export type OracleBinding = NonNullable<Oracle['bindings']>[number];
