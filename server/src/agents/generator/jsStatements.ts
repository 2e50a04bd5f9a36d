// Splits a JavaScript/TypeScript docs snippet into top-level statements with the `//` comment that
// follows each on its line, and the comment lines between them, read with oxc (util/jsRecover.ts).
// Docs snippets are often not whole programs (`ms('2 days')  // 172800000` without a semicolon,
// prose comments between calls); a statement that could not be read is reported as `broken`, so it
// is neither run as setup nor taken as an example.
import type { EsComment, EsNode } from '../../util/jsParser';
import { parseRecovering } from '../../util/jsRecover';
import { lineOf } from '../../util/lineOf';
import { lineStarts } from '../../util/lineStarts';

/** A snippet's text and comments: what textOf needs to print one of its nodes. */
export interface SnippetSource {
  text: string;
  comments: EsComment[];
}

export interface Statement {
  /** code without comments, trimmed, trailing `;` removed */
  code: string;
  /** text of a `//` (or one-line `/* *\/`) comment after the statement on its last line, if any */
  comment?: string;
  /** 0-based line of the statement's first line inside the snippet */
  line: number;
  /** the parser reported an error on a line of this statement */
  broken?: boolean;
  /** the parsed node (ESTree; `Unparsed` when broken), for callers that read its shape (e.g. `a === b`) */
  node: EsNode;
  source: SnippetSource;
}

export type SnippetItem = Statement | { comment: string; line: number; code?: undefined };

/** Statements and stand-alone comment lines, in order. */
export function splitStatements(snippet: string): SnippetItem[] {
  const text = snippet.replace(/\r\n?/g, '\n');
  const { statements, comments, errors } = parseRecovering('snippet.ts', text);
  const source: SnippetSource = { text, comments };
  const starts = lineStarts(text);
  const lineAt = (pos: number) => lineOf(starts, pos);
  const items: SnippetItem[] = [];
  const taken = new Set<EsComment>();
  // Comments before `pos` that are on lines of their own (one after a statement on its line belongs to it).
  let after = 0;
  const standalone = (pos: number) => {
    for (const c of comments) {
      if (c.start < after || c.end > pos || taken.has(c)) continue;
      taken.add(c);
      if (after > 0 && !text.slice(after, c.start).includes('\n')) continue;
      if (c.type === 'Line') items.push({ comment: c.value.trim(), line: lineAt(c.start) });
    }
  };
  for (const st of statements) {
    standalone(st.start);
    for (const c of comments) if (c.start >= st.start && c.end <= st.end) taken.add(c);
    after = st.end;
    if (st.type === 'EmptyStatement') continue;
    const item: Statement = { code: withoutComments(source, st).replace(/;$/, '').trim(), line: lineAt(st.start), node: st, source };
    // An error on one of its lines: what the parser read there beside the error is not sound either (`this is prose`).
    if (st.type === 'Unparsed' || errors.some((e) => lineAt(e) >= item.line && lineAt(e) <= lineAt(st.end))) item.broken = true;
    const trailing = comments.find((c) => c.start >= st.end && !taken.has(c));
    if (trailing && /^[^\S\n]*$/.test(text.slice(st.end, trailing.start))) {
      taken.add(trailing);
      item.comment = (trailing.type === 'Block' ? trailing.value.replace(/^\*+|\*+$/g, '') : trailing.value).trim();
    }
    if (item.code) items.push(item);
  }
  standalone(text.length);
  return items;
}

/** The node's code with its comments removed. */
export function textOf(source: SnippetSource, node: EsNode): string {
  return withoutComments(source, node).trim();
}

function withoutComments({ text, comments }: SnippetSource, node: EsNode): string {
  let out = '';
  let last = node.start;
  for (const c of comments) {
    if (c.start < node.start || c.end > node.end) continue;
    out += text.slice(last, c.start).replace(/[ \t]+$/, '');
    last = c.end;
  }
  return out + text.slice(last, node.end);
}
