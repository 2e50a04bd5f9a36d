// One framework's way to run test files and read its structured report: frameworks/<id>/runner.ts,
// its descriptor's `runner` (frameworks/registry.ts).
import type { Parsed, RunOptions } from './results';
import type { RunnerPackage } from './runnerPackage';

interface Invocation {
  cmd: string;
  args: string[];
  /** the results, from the report file the run wrote under `out` or from its output */
  read(output: string, dir: string): Parsed;
}

export interface FrameworkRunner {
  /** the npm package whose command line it spawns (none: node:test is Node's own, pytest is Python's) */
  package?: RunnerPackage;
  /** @param out a private temp dir for report files, removed after the run */
  invocation(files: string[], out: string, opts: RunOptions): Invocation;
}

/**
 * The runner's name filter for the tests named in `opts.grep`: `regex`, one regular expression that
 * matches a reported name ending with one of them (mocha, jest, vitest, node:test, node-tap match
 * their pattern against the describe names and title); `pytest`, a `-k` expression of the
 * function names (identifiers, so nothing to quote).
 */
export function grepOf(opts: RunOptions, kind: 'regex' | 'pytest'): string | undefined {
  const g = opts.grep === undefined ? [] : Array.isArray(opts.grep) ? opts.grep : [opts.grep];
  if (!g.length) return undefined;
  if (kind === 'pytest') return g.join(' or ');
  return g.map((name) => `${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`).join('|');
}
