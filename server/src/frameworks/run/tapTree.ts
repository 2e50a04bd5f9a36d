// TAP output (node:test, ava, node-tap) read with tap-parser into a tree of test points: each point
// knows its depth, its subtests' points and the comments printed just before it. The runners of those
// frameworks (../node-test/runner.ts, ../ava/runner.ts, ../node-tap/runner.ts) pick their tests from this tree.
import { Parser } from 'tap-parser';
import type { Result } from 'tap-parser';

export interface TapPoint {
  name: string;
  ok: boolean;
  skipped: boolean;
  /** the YAML diagnostics block, parsed */
  diag: Record<string, unknown> | undefined;
  depth: number;
  /** the points of this point's subtest, when it had one */
  children: TapPoint[];
  /** `#` comments of the same level printed since the previous point (node:test puts a failed file's stderr there) */
  comments: string[];
}

export interface TapTree {
  points: TapPoint[];
  /** lines that are not TAP (a runner's own stderr) */
  extra: string[];
}

/** Parses a whole TAP stream (non-TAP lines are kept in `extra`). */
export function tapTree(output: string): TapTree {
  const extra: string[] = [];
  const parser = new Parser();
  const points = collect(parser, 0, extra);
  parser.end(output.endsWith('\n') ? output : `${output}\n`);
  return { points, extra };
}

function collect(parser: Parser, depth: number, extra: string[]): TapPoint[] {
  const points: TapPoint[] = [];
  const subtests: { name: string; points: TapPoint[] }[] = [];
  let comments: string[] = [];
  parser.on('comment', (c: string) => {
    if (!/^\s*# Subtest:/.test(c)) comments.push(c.replace(/^\s*# ?/, '').replace(/\n$/, ''));
  });
  parser.on('extra', (e: string) => extra.push(e.replace(/\n$/, '')));
  parser.on('child', (child: Parser) => subtests.push({ name: child.name, points: collect(child, depth + 1, extra) }));
  parser.on('assert', (r: Result) => {
    // The subtest a point closes is the latest one of its name not yet claimed.
    const i = subtests.findIndex((s) => s.name === r.name);
    const children = i >= 0 ? subtests.splice(i, 1)[0].points : [];
    points.push({
      name: r.name,
      ok: r.ok,
      skipped: Boolean(r.skip) || Boolean(r.todo),
      diag: r.diag ?? undefined,
      depth,
      children,
      comments,
    });
    comments = [];
  });
  return points;
}

/** The text of a diagnostics value: strings as they are, anything else as indented YAML-ish JSON. */
export function diagText(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  return typeof v === 'string' ? v : JSON.stringify(v, null, 2);
}
