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
  /** where test files go and how they import the sources (frameworks/layout.ts) */
  layout: {
    /** a TypeScript source is imported by its `.js` name in every project, not only in ESM ones (vite reads ESM anywhere) */
    esmImportsAlways: boolean;
  };
  /** how mutation testing drives its JavaScript tests (mutation/js/); pytest has an engine of its own */
  mutation?: MutationFacts;
  /** what tells the crawler a project uses it (agents/crawler/testSetup.ts) */
  detection: FrameworkDetection;
  /** moves the setup several of AMTP's tests repeat into its hook or fixture (verifier/tidyPhase.ts); none leaves files as written */
  sharedSetup?: SharedSetup;
}

/**
 * The file with the value several tests build first built once per test by the framework's hook or
 * fixture instead; undefined when nothing is shared. With `ours`, only tests of these case ids
 * change: a test an earlier run wrote keeps the text that run recorded (pipeline/editedTests.ts
 * would read a change as the person's), and a person's own test is theirs.
 */
export type SharedSetup = (path: string, content: string, ours?: ReadonlySet<string>) => string | undefined;

interface MutationFacts {
  /** first guess of one test run's cost beyond its own time, in ms (corrected after each batch) */
  perTestMs: number;
  /** where a round's `describe` block comes from: a global, a module's export, or none (flat tests: the round's label prefixes each test name) */
  describe: 'global' | { from: string } | 'none';
  /** the rounds' tests run one after another (ava runs a file's tests at once unless `test.serial`) */
  serial: boolean;
}

interface FrameworkDetection {
  /** its runner's config files; each one within three folders of the root is a vote */
  configFiles: RegExp[];
  /** a word every one of those names contains: the cheap first test a large tree's files go through */
  configHint?: RegExp;
  /** package.json's test script starts its runner */
  script: RegExp;
  /** its own config files the crawler reads as data (agents/crawler/runnerConfigs.ts), in the order tried, and their key that lists the test files as plain globs */
  readConfig?: { files: string[]; filesKey?: string };
  /** the test files its runner runs when neither the command nor a config names them (its documentation) */
  defaultPatterns: string[];
  /** npm packages whose presence among package.json's dependencies is a vote */
  packages: string[];
  /** its config key in package.json */
  packageJsonKey?: string;
  /** the runner's name in a test script and in test_setup.runs, where it is not the id (the `tap` binary is node-tap) */
  command?: string;
}
