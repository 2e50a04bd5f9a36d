// Splits a JavaScript/TypeScript docs snippet into top-level statements with the `//` comment that
// follows each on its line, and the comment lines between them, using the TypeScript parser.
// Docs snippets are often not whole programs (`ms('2 days')  // 172800000` without a semicolon,
// prose comments between calls); the parser recovers from that, and a statement it could not read
// is reported as `broken` so it is neither run as setup nor taken as an example.
import type * as TS from 'typescript';
import { typescript } from '../../util/typescript';

export interface Statement {
  /** code without comments, trimmed, trailing `;` removed */
  code: string;
  /** text of a `//` (or one-line `/* *\/`) comment after the statement on its last line, if any */
  comment?: string;
  /** 0-based line of the statement's first line inside the snippet */
  line: number;
  /** the parser reported an error inside this statement */
  broken?: boolean;
  /** the parsed node, for callers that read its shape (e.g. `a === b`) */
  node: TS.Statement;
}

export type SnippetItem = Statement | { comment: string; line: number; code?: undefined };

/** Statements and stand-alone comment lines, in order. */
export function splitStatements(snippet: string): SnippetItem[] {
  const ts = typescript();
  const text = snippet.replace(/\r\n?/g, '\n');
  const sf = ts.createSourceFile('snippet.ts', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const errors = ((sf as unknown as { parseDiagnostics?: TS.Diagnostic[] }).parseDiagnostics ?? []).map((d) => d.start ?? 0);
  const lineOf = (pos: number) => sf.getLineAndCharacterOfPosition(pos).line;
  const items: SnippetItem[] = [];
  const taken = new Set<number>();
  const standalone = (pos: number) => {
    for (const c of ts.getLeadingCommentRanges(text, pos) ?? []) {
      if (taken.has(c.pos)) continue;
      taken.add(c.pos);
      if (c.kind === ts.SyntaxKind.SingleLineCommentTrivia)
        items.push({ comment: text.slice(c.pos + 2, c.end).trim(), line: lineOf(c.pos) });
    }
  };
  for (const st of sf.statements) {
    standalone(st.pos);
    const start = st.getStart(sf);
    if (st.kind === ts.SyntaxKind.EmptyStatement) continue;
    const item: Statement = { code: withoutComments(ts, sf, st).replace(/;$/, '').trim(), line: lineOf(start), node: st };
    if (errors.some((e) => e >= start && e < st.end)) item.broken = true;
    const trailing = (ts.getTrailingCommentRanges(text, st.end) ?? []).find((c) => lineOf(c.pos) === lineOf(st.end));
    if (trailing) {
      taken.add(trailing.pos);
      item.comment = commentText(text.slice(trailing.pos, trailing.end));
    }
    if (item.code) items.push(item);
  }
  standalone(sf.endOfFileToken.pos);
  return items;
}

function commentText(raw: string): string {
  return raw.startsWith('//') ? raw.slice(2).trim() : raw.replace(/^\/\*+|\*+\/$/g, '').trim();
}

/** The statement's code with its comments removed: comments sit in the trivia before each token. */
export function textOf(node: TS.Node): string {
  return withoutComments(typescript(), node.getSourceFile(), node).trim();
}

function withoutComments(ts: typeof TS, sf: TS.SourceFile, st: TS.Node): string {
  const text = sf.text;
  const start = st.getStart(sf);
  const ranges = new Map<number, number>();
  const visit = (n: TS.Node) => {
    const around = [...(ts.getLeadingCommentRanges(text, n.pos) ?? []), ...(ts.getTrailingCommentRanges(text, n.end) ?? [])];
    for (const c of around) if (c.pos >= start && c.end <= st.end) ranges.set(c.pos, c.end);
    for (const child of n.getChildren(sf)) visit(child);
  };
  visit(st);
  let out = '';
  let last = start;
  for (const [pos, end] of [...ranges].sort((a, b) => a[0] - b[0])) {
    out += text.slice(last, pos).replace(/[ \t]+$/, '');
    last = end;
  }
  return out + text.slice(last, st.end);
}
