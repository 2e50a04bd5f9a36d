import type * as TS from 'typescript';
import type { OracleBinding, Project, TestCase } from '../contracts/types';
import type { Framework } from '../core/frameworks';
import type { PyFunction } from './pyModel';
import type { PySnippet } from './pySyntax';

export type { Project };

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

/** A test body as a syntax tree, its snippets already parsed. */
export interface JsCaseBody {
  language: 'javascript';
  statements: TS.Statement[];
  async: boolean;
}

/** A test body as Python statements; its snippets are checked by `validate` before it is printed. */
export interface PyCaseBody {
  language: 'python';
  /** the whole test function */
  function: PyFunction;
  /** the snippets in it, and the import lines its bindings need, for the syntax check */
  snippets: PySnippet[];
}

export type CaseBody = JsCaseBody | PyCaseBody;

export interface RenderedCase {
  case: TestCase;
  body: CaseBody;
}

export interface BodyPlan {
  typescript: boolean;
  /** how the test file reaches the module under test */
  importPath: string;
  /** the names the body uses from that module */
  bindings: OracleBinding[];
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
  /** test body for one case, or the reason it cannot be written (no checkable oracle, a snippet that does not parse) */
  body(c: TestCase, plan: BodyPlan): CaseBody | { reason: string };
  /**
   * Checks many bodies at once, where checking has a fixed cost (Python: one interpreter for the
   * whole run). Returns the reason for each case that must not be written.
   */
  /**
   * A body written as text (a model's reply, or `printBody`'s output recorded in an artifact) as this
   * framework's body, or the reason it cannot go in a file. `async`: the writer said it awaits.
   */
  parseBody(c: TestCase, text: string, plan: BodyPlan, async: boolean): CaseBody | { reason: string };
  /** A body's statements as text, the form test bodies take in artifacts. */
  printBody(body: CaseBody, plan: BodyPlan): string;
  validate?(bodies: { caseId: string; body: CaseBody }[]): Map<string, string>;
  render(plan: TestFilePlan): string;
  /** files the tests need besides themselves (e.g. a jest transform for TypeScript, a conftest.py for a src/ layout) */
  supportFiles?(project: Project, testPaths: string[], targets: string[]): SupportFile[];
  /** @param targets workspace-relative files under test */
  runCommand(project: Project, testPaths: string[], targets: string[]): string;
  devDependencies(project: Project): string[];
  /** file extension for test files when the naming pattern does not say */
  extension(project: Project): string;
  /** whether test files use ESM import syntax */
  esm(project: Project): boolean;
}
