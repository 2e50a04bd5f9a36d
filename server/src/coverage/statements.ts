// Statements as istanbul counts them (nyc, jest's babel provider), not one per source line. V8's
// coverage through v8-to-istanbul (c8, server/src/coverage/v8.ts) makes every
// line a statement, comments and blank lines included: a JSDoc-heavy module that is only loaded then
// reads as largely covered, and the figure stops agreeing with `nyc --all`. So each file's
// statements are re-read from its syntax tree with istanbul's rules (istanbul-lib-instrument's
// visitor: expression, return, throw, break/continue, try, if, loops, switch, labelled statements,
// variable declarators with an initializer, class properties with a value, and the body of an
// expression-bodied arrow), and each is covered when the code at its start ran: the innermost V8
// block range holding it had a count (precise), or, where only lines are known (source-mapped files:
// tsx, AMTP's loader, vitest), when its line ran. A file that does not parse keeps its line statements.
import { readFileSync, statSync } from 'node:fs';
import type * as TS from 'typescript';
import { typescript } from '../util/typescript';
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
  const ts = typescript();
  const kind = /\.[cm]?tsx$/.test(path)
    ? ts.ScriptKind.TSX
    : /\.[cm]?ts$/.test(path)
      ? ts.ScriptKind.TS
      : /\.jsx$/.test(path)
        ? ts.ScriptKind.JSX
        : ts.ScriptKind.JS;
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
  if (((sf as unknown as { parseDiagnostics?: unknown[] }).parseDiagnostics ?? []).length) return undefined;
  const spans: Span[] = [];
  const add = (n: TS.Node) => spans.push({ start: n.getStart(sf), end: n.getEnd() });
  const visit = (n: TS.Node): void => {
    // A directive ('use strict') is no statement for istanbul.
    if (counts(ts, n) && !(ts.isExpressionStatement(n) && ts.isStringLiteral(n.expression))) add(n);
    else if (ts.isVariableDeclaration(n) && n.initializer && !isAmbient(ts, n)) add(n.initializer);
    else if (ts.isPropertyDeclaration(n) && n.initializer) add(n.initializer);
    else if (ts.isArrowFunction(n) && !ts.isBlock(n.body)) add(n.body);
    if (!isTypeOnly(ts, n)) ts.forEachChild(n, visit);
  };
  visit(sf);
  spans.sort((a, b) => a.start - b.start);
  const at = (o: number) => {
    const p = sf.getLineAndCharacterOfPosition(o);
    return { line: p.line + 1, column: p.character };
  };
  return { spans, locs: spans.map((s) => ({ start: at(s.start), end: at(s.end) })), branches: branchesOf(ts, sf, at) };
}

function counts(ts: typeof TS, n: TS.Node): boolean {
  switch (n.kind) {
    case ts.SyntaxKind.ExpressionStatement:
    case ts.SyntaxKind.ReturnStatement:
    case ts.SyntaxKind.ThrowStatement:
    case ts.SyntaxKind.BreakStatement:
    case ts.SyntaxKind.ContinueStatement:
    case ts.SyntaxKind.DebuggerStatement:
    case ts.SyntaxKind.TryStatement:
    case ts.SyntaxKind.IfStatement:
    case ts.SyntaxKind.ForStatement:
    case ts.SyntaxKind.ForInStatement:
    case ts.SyntaxKind.ForOfStatement:
    case ts.SyntaxKind.WhileStatement:
    case ts.SyntaxKind.DoStatement:
    case ts.SyntaxKind.SwitchStatement:
    case ts.SyntaxKind.WithStatement:
    case ts.SyntaxKind.LabeledStatement:
      return true;
    default:
      return false;
  }
}

function isTypeOnly(ts: typeof TS, n: TS.Node): boolean {
  return ts.isInterfaceDeclaration(n) || ts.isTypeAliasDeclaration(n) || isAmbient(ts, n);
}

function isAmbient(ts: typeof TS, n: TS.Node): boolean {
  return !!(ts.getCombinedModifierFlags(n as TS.Declaration) & ts.ModifierFlags.Ambient);
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
