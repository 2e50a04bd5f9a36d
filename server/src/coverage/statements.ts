// Statements as istanbul counts them (nyc, jest's babel provider), not one per source line. V8's
// coverage through v8-to-istanbul (c8, server/src/coverage/v8.ts) makes every
// line a statement, comments and blank lines included: a JSDoc-heavy module that is only loaded then
// reads as largely covered, and the figure stops agreeing with `nyc --all`. So each file's
// statements are re-read from its syntax tree (oxc's ESTree) with istanbul's rules (istanbul-lib-instrument's
// visitor: expression, return, throw, break/continue, try, if, loops, switch, labelled statements,
// variable declarators with an initializer, class properties with a value, and the body of an
// expression-bodied arrow), and each is covered when the code at its start ran: the innermost V8
// block range holding it had a count (precise), or, where only lines are known (source-mapped files:
// tsx, AMTP's loader, vitest), when its line ran. A file with a syntax error keeps its line statements.
import { readFileSync, statSync } from 'node:fs';
import { isString, walk } from '../util/esTree';
import { jsParser, type EsNode } from '../util/jsParser';
import { lineColumnAt, lineStarts } from '../util/lineStarts';
import { branchesOf, withSyntaxBranches, type Branch } from './branches';
import type { IstanbulFile } from './units';

interface Span {
  start: number;
  end: number;
}
interface Loc {
  start: { line: number; column: number };
  end: { line: number; column: number };
}
export interface V8Range {
  startOffset: number;
  endOffset: number;
  count: number;
}

interface Syntax {
  spans: Span[];
  locs: Loc[];
  branches: Branch[];
}

const cache = new Map<string, ({ key: string } & Syntax) | undefined>();

/** The file's statements by istanbul's rules (offsets and line/column locations), or undefined when it does not parse. */
export function syntaxStatements(path: string): Syntax | undefined {
  let key: string;
  try {
    const st = statSync(path);
    key = `${st.size}:${st.mtimeMs}`;
  } catch {
    return undefined;
  }
  const hit = cache.get(path);
  if (hit?.key === key) return hit;
  const parsed = parse(path, readFileSync(path, 'utf8'));
  const entry = parsed ? { key, ...parsed } : undefined;
  cache.set(path, entry);
  return entry;
}

function parse(path: string, text: string): Syntax | undefined {
  // Parenthesized expressions kept: a statement such as the body of `() => ({})` starts at its `(`.
  const { program, errors } = jsParser().parse(path, text, { preserveParens: true });
  if (errors.length) return undefined;
  const spans: Span[] = [];
  const add = (n: EsNode) => spans.push({ start: n.start, end: n.end });
  walk(program, (n) => {
    // A directive ('use strict') is no statement for istanbul.
    if (STATEMENTS.has(n.type) && !(n.type === 'ExpressionStatement' && isString(n.expression))) add(n);
    else if (n.type === 'VariableDeclarator' && n.init) add(n.init);
    else if (PROPERTIES.has(n.type) && n.value) add(n.value);
    else if (n.type === 'ArrowFunctionExpression' && n.expression) add(n.body);
    return !isTypeOnly(n);
  });
  // Outer before inner at one start, as a walk in source order adds them.
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const starts = lineStarts(text);
  const at = (o: number) => lineColumnAt(starts, o);
  return { spans, locs: spans.map((s) => ({ start: at(s.start), end: at(s.end) })), branches: branchesOf(program, at) };
}

const STATEMENTS = new Set([
  'ExpressionStatement',
  'ReturnStatement',
  'ThrowStatement',
  'BreakStatement',
  'ContinueStatement',
  'DebuggerStatement',
  'TryStatement',
  'IfStatement',
  'ForStatement',
  'ForInStatement',
  'ForOfStatement',
  'WhileStatement',
  'DoWhileStatement',
  'SwitchStatement',
  'WithStatement',
  'LabeledStatement',
]);

/** Class properties (`x = 1`, `accessor x = 1`): their value is a statement. */
const PROPERTIES = new Set(['PropertyDefinition', 'AccessorProperty', 'TSAbstractPropertyDefinition', 'TSAbstractAccessorProperty']);

/** Types and `declare`d code never run: nothing in them is a statement. */
function isTypeOnly(n: EsNode): boolean {
  return n.type === 'TSInterfaceDeclaration' || n.type === 'TSTypeAliasDeclaration' || n.declare === true;
}

/** The count of the innermost V8 range around an offset (ranges of every function of the script; 0 outside them all). */
export function countAt(ranges: V8Range[]): (offset: number) => number {
  const sorted = [...ranges].sort((a, b) => a.endOffset - a.startOffset - (b.endOffset - b.startOffset));
  return (o) => sorted.find((r) => r.startOffset <= o && o < r.endOffset)?.count ?? 0;
}

/** Covered when v8-to-istanbul's statement of the line it starts on ran (only lines are known). */
function byLines(d: IstanbulFile, locs: Loc[], spans: Span[]): (s: Span) => boolean {
  const line = new Map<number, number>();
  for (const [id, l] of Object.entries(d.statementMap)) line.set(l.start.line, Math.max(line.get(l.start.line) ?? 0, d.s[id] ?? 0));
  const index = new Map(spans.map((s, i) => [s, i]));
  return (s) => (line.get(locs[index.get(s)!].start.line) ?? 0) > 0;
}

/**
 * The file's coverage with its statements, and where the V8 counts at each offset are known (`count`:
 * the file's own offsets, or read through its source map, ./mappedCounts.ts) its branches, re-read
 * from the syntax tree (./branches.ts); unchanged when the file does not parse.
 */
export function withSyntaxStatements(d: IstanbulFile, path: string, count?: (offset: number) => number): IstanbulFile {
  const st = syntaxStatements(path);
  if (!st) return d;
  const ran = count ? (s: Span) => count(s.start) > 0 : byLines(d, st.locs, st.spans);
  const statementMap: IstanbulFile['statementMap'] = {};
  const s: IstanbulFile['s'] = {};
  st.spans.forEach((span, i) => {
    statementMap[`${i}`] = st.locs[i];
    s[`${i}`] = ran(span) ? 1 : 0;
  });
  const out = { ...d, statementMap, s };
  return count ? withSyntaxBranches(out, st.branches, count) : out;
}
