// One framework's way to run test files and read its structured report. Each framework has its own
// file under frameworks/run/ and one entry in frameworks/run/index.ts RUNNERS.
import type { Parsed, RunOptions } from './results';

interface Invocation {
  cmd: string;
  args: string[];
  /** the results, from the report file the run wrote under `out` or from its output */
  read(output: string, dir: string): Parsed;
}

export interface FrameworkRunner {
  /** @param out a private temp dir for report files, removed after the run */
  invocation(files: string[], out: string, opts: RunOptions): Invocation;
}

/** Case ids are plain hex: the ids of `opts.grep` joined with `sep` (a regex `|`, pytest's ` or `). */
export function grepOf(opts: RunOptions, sep: string): string | undefined {
  const g = opts.grep;
  return Array.isArray(g) ? (g.length ? g.join(sep) : undefined) : g;
}

/** A report value as text: strings as they are, anything else as JSON (undefined when absent). */
export function asText(v: unknown): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'string') return v;
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
}
