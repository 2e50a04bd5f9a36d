// The launch configuration that runs one written test under the debugger: the run's own test
// command (RunView.testCommand, from the framework renderers in server/src/frameworks/), its test
// files replaced by the one file and a name filter on the test's own name (its title; Python: its
// function name), which the server reads from the file (CaseView.testName, frameworks/caseMap.ts).
import { parse as shellParse } from 'shell-quote';
import type * as P from '../../../server/src/protocol';

/** A vscode.DebugConfiguration, kept free of the vscode module so it can be unit-tested. */
export interface LaunchConfig {
  type: string;
  request: 'launch';
  name: string;
  cwd: string;
  [key: string]: unknown;
}

/** The Debug Console, not a terminal: its output reaches the debug adapter, so the Testing view records it (debugRun.ts). */
const CONSOLE = 'internalConsole';
/** js-debug: the program's stdout and stderr, not only its console.* calls (the runners write their results to stdout). */
const NODE_OUTPUT = { outputCapture: 'std' };

/** Where each JS runner's CLI lives inside node_modules (their package.json `bin`). */
const JS_BINS: Record<string, string> = { mocha: 'mocha/bin/mocha.js', jest: 'jest/bin/jest.js', vitest: 'vitest/vitest.mjs' };
/** The runner option that keeps only the tests whose name matches. */
const NAME_FILTER: Record<string, string[]> = {
  mocha: ['--grep'],
  jest: ['--runInBand', '-t'],
  vitest: ['-t'],
  node: ['--test-name-pattern'],
  pytest: ['-k'],
};

/** A regular expression that matches the reported name of the case's test and no other (older files: its case id). */
function namePattern(c: Pick<P.CaseView, 'id' | 'testName'>): string {
  return c.testName ? `${c.testName.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$` : c.id;
}

/**
 * The debug launch for case `c` of `run`, or the reason there is none. `debugpy` says whether the
 * Python debugger extension is installed (pytest runs need it).
 */
export function debugConfigFor(run: P.RunView, c: P.CaseView, root: string, debugpy: boolean): LaunchConfig | { error: string } {
  if (!run.testCommand || !c.testFile) return { error: `${c.id} has no written test to debug.` };
  const env: Record<string, string> = {};
  const words: string[] = [];
  for (const tok of shellParse(run.testCommand)) {
    if (typeof tok !== 'string') return { error: `the test command \`${run.testCommand}\` is not one plain command.` };
    const assign = /^([A-Za-z_]\w*)=(.*)$/.exec(tok);
    if (assign && !words.length) env[assign[1]] = assign[2];
    else words.push(tok);
  }
  // The run's test files give way to the one file; its other words (a --config, a loader) stay.
  const testFiles = new Set(run.cases.map((x) => x.testFile));
  const keep = (w: string) => !testFiles.has(w);
  const name = `AMTP: debug ${c.id}`;
  const base = { request: 'launch' as const, name, cwd: root, ...(Object.keys(env).length ? { env } : {}) };
  const [head, ...rest] = words;
  if (head === 'npx' && JS_BINS[rest[0]]) {
    const runner = rest[0];
    const args = [...rest.slice(1).filter(keep), c.testFile, ...NAME_FILTER[runner], namePattern(c)];
    return {
      ...base,
      type: 'node',
      program: `${root}/node_modules/${JS_BINS[runner]}`,
      args,
      console: CONSOLE,
      skipFiles: ['<node_internals>/**'],
      ...NODE_OUTPUT,
    };
  }
  if (head === 'node') {
    return {
      ...base,
      type: 'node',
      runtimeArgs: [...rest.filter(keep), ...NAME_FILTER.node, namePattern(c), c.testFile],
      console: CONSOLE,
      skipFiles: ['<node_internals>/**'],
      ...NODE_OUTPUT,
    };
  }
  if (/^python[\d.]*$/.test(head ?? '') && rest[0] === '-m' && rest[1] === 'pytest') {
    if (!debugpy) return { error: 'debugging a pytest test needs the Python Debugger extension (ms-python.debugpy).' };
    return {
      ...base,
      type: 'debugpy',
      module: 'pytest',
      args: [...rest.slice(2).filter(keep), c.testFile, ...NAME_FILTER.pytest, c.testName ?? c.id],
      justMyCode: false,
      console: CONSOLE,
    };
  }
  return { error: `AMTP does not know how to debug \`${run.testCommand}\`.` };
}
