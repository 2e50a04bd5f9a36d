// The contracts' TypeScript types, derived from the generated ones (generated.ts, from schemas/),
// under the names the code uses. Nothing here is written by hand beyond naming parts.
import type { CrawlerOutput, EngineerOutput, KeyFile, RepairInput, RepairOutput, SymbolInfo, TestCase, TestCases } from './generated';

export type { CrawlerOutput, EngineerOutput, KeyFile, RepairInput, RepairOutput, SymbolInfo, TestCase, TestCases };

export type ModuleSystem = CrawlerOutput['project']['module_system'];
export type TestSetup = CrawlerOutput['test_setup'];
export type DetectedFramework = TestSetup['framework'];
export type ExportStyle = NonNullable<SymbolInfo['export_style']>;
export type Priority = TestCase['priority'];
export type CaseKind = TestCase['kind'];
export type Oracle = NonNullable<TestCase['oracle']>;
/** How a test binds a name the documented snippet uses to the module under test. */
export type OracleBinding = NonNullable<Oracle['bindings']>[number];
export type EngineerFile = EngineerOutput['files'][number];
