// Everything AMTP knows of one test framework, as one object: each framework's folder
// (frameworks/<id>/) exports it from its index.ts, and frameworks/registry.ts lists them all.
import type { Framework } from '../core/frameworks';
import type { ParsedAssertion } from './failureText';
import type { FrameworkRunner } from './run/runnerTypes';
import type { FrameworkRenderer } from './types';

export interface FrameworkDescriptor {
  id: Framework;
  /** writes the test files: bodies, the file, its support files, the run command, the packages it needs (`devDependencies`) */
  renderer: FrameworkRenderer;
  /** the conventions the prompts state, the ones the renderer follows */
  conventions: string;
  /** runs test files and reads the report; `runner.package` is the npm package of its command line */
  runner: FrameworkRunner;
  /** a failing assertion's expected and actual values, parsed from the runner's message when its report has none */
  parseFailure(message: string): ParsedAssertion | undefined;
}
