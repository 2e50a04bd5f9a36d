// TypeScript mirrors of schemas/*.schema.json. The schemas are the source of truth;
// keep these in step when a schema changes (test/unit/contracts.test.ts checks samples against both).
import type { Framework } from '../core/frameworks';

export type ModuleSystem = 'cjs' | 'esm' | 'python' | 'unknown';
export type DetectedFramework = Framework | 'unittest' | 'none';
export type ExportStyle = 'named' | 'default' | 'module.exports' | 'exports.property' | 'python';

export interface TestSetup {
  framework: DetectedFramework;
  others?: string[];
  test_dirs: string[];
  naming_pattern?: string;
  command?: string;
  config_files: string[];
  evidence?: string;
}

export interface SymbolInfo {
  name: string;
  kind: 'function' | 'class' | 'method' | 'variable' | 'constant' | 'type' | 'interface' | 'enum' | 'module';
  exported: boolean;
  export_style?: ExportStyle;
  signature?: string;
  params?: { name: string; type?: string; optional?: boolean; default?: string; rest?: boolean }[];
  returns?: string;
  async?: boolean;
  doc?: string;
  examples?: string[];
  throws?: string[];
  line?: number;
}

export interface KeyFile {
  path: string;
  language: string;
  rank: number;
  module_system?: ModuleSystem;
  import_specifier?: string;
  symbols: SymbolInfo[];
}

export interface CrawlerOutput {
  schema_version: '1';
  project: { name: string; version?: string; module_system: ModuleSystem; typescript: boolean; description?: string };
  tree: { files: number; dirs: number; bytes: number; truncated: boolean };
  languages: { name: string; files: number; bytes: number }[];
  package_managers: { name: string; manifest: string; lockfile?: string; workspaces?: string[] }[];
  frameworks: { name: string; version?: string; evidence: string }[];
  test_setup: TestSetup;
  packages?: { name: string; dir: string; module_system?: ModuleSystem }[];
  entry_points: { path: string; kind: 'main' | 'module' | 'exports' | 'bin' | 'types' | '__main__' | 'console_script' | 'package'; name?: string; package?: string }[];
  key_files: KeyFile[];
  usage_examples: { source: string; line: number; lang: string; code: string; symbols: string[] }[];
  samples?: { path: string; content: string; truncated: boolean }[];
  skipped: { path: string; reason: string }[];
  notes?: string[];
}

export type Priority = 'P0' | 'P1' | 'P2' | 'P3';
export type CaseKind = 'smoke' | 'example' | 'boundary' | 'error' | 'property' | 'combinatorial';

/** How a test binds a name the documented snippet uses to the module under test. */
export interface OracleBinding {
  /** identifier the snippet uses */
  local: string;
  /** module: the module value itself (CJS module.exports, `import m` in Python); namespace: `import * as`; named: one export */
  import: 'module' | 'default' | 'named' | 'namespace';
  /** export name, for `named` */
  name?: string;
}

export interface Oracle {
  kind: 'equals' | 'deep_equals' | 'throws' | 'type' | 'arity' | 'exports' | 'prints' | 'truthy';
  language: 'javascript' | 'typescript' | 'python';
  setup?: string;
  call?: string;
  expected?: string;
  error?: string;
  bindings?: OracleBinding[];
  /** property-style checks the engineer derives from call/expected without a new value */
  property?: 'deterministic' | 'order_independent';
  /** for order_independent: the documented calls with their documented results, run in sequence */
  sequence?: { call: string; expected: string; kind: 'equals' | 'deep_equals' | 'prints' }[];
}

export interface TestCase {
  id: string;
  title: string;
  target: { file: string; symbol: string; symbol_kind?: string; import_specifier?: string; export_style?: ExportStyle; async?: boolean; arity?: number };
  kind: CaseKind;
  priority: Priority;
  preconditions: string[];
  steps: string[];
  expected: string[];
  rationale: string;
  evidence?: { source: 'readme' | 'jsdoc' | 'docstring' | 'doctest' | 'signature' | 'throws' | 'source' | 'llm'; location?: string; snippet?: string };
  oracle?: Oracle;
}

export interface TestCases {
  schema_version: '1';
  depth_level: 'smoke' | 'standard' | 'deep';
  project: {
    name: string;
    language: 'javascript' | 'typescript' | 'python' | 'other';
    module_system: ModuleSystem;
    typescript: boolean;
    test_setup: Omit<TestSetup, 'evidence'>;
  };
  cases: TestCase[];
  not_planned?: { target: string; reason: string }[];
}

export interface EngineerOutput {
  schema_version: '1';
  framework: Framework;
  files: { path: string; content: string; caseIds: string[] }[];
  command: string;
  dev_dependencies?: string[];
  not_written: { caseId: string; reason: string }[];
  pr: { branch: string; title: string; body: string; labels: string[] };
}
