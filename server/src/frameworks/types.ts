import type { OracleBinding, TestCase, TestCases } from '../contracts/types';
import type { Framework } from '../core/frameworks';

export type Project = TestCases['project'];

/** One test file to render: the cases for one target module. */
export interface TestFilePlan {
  project: Project;
  /** workspace-relative path of the test file */
  path: string;
  /** how the test file reaches the module under test (relative path or specifier) */
  importPath: string;
  bindings: OracleBinding[];
  cases: RenderedCase[];
  typescript: boolean;
  esm: boolean;
}

/** A case with its test body already written (lines, unindented). */
export interface RenderedCase {
  case: TestCase;
  body: string[];
  async: boolean;
}

export interface SupportFile {
  path: string;
  content: string;
}

export interface FrameworkRenderer {
  id: Framework;
  language: 'javascript' | 'python';
  /** the project already uses this framework */
  detect(project: Project): boolean;
  /** test body for one case, or the reason it cannot be written without guessing */
  body(c: TestCase, plan: { typescript: boolean }): { lines: string[]; async: boolean } | { reason: string };
  render(plan: TestFilePlan): string;
  /** files the tests need besides themselves (e.g. a jest transform for TypeScript) */
  supportFiles?(project: Project, testPaths: string[]): SupportFile[];
  /** @param targets workspace-relative files under test */
  runCommand(project: Project, testPaths: string[], targets: string[]): string;
  devDependencies(project: Project): string[];
  /** file extension for test files when the naming pattern does not say */
  extension(project: Project): string;
  /** whether test files use ESM import syntax */
  esm(project: Project): boolean;
}
