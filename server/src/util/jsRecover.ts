// Reads docs code statement by statement. Snippets are often not whole programs (`ms('2 days')
// 172800000`, a line of prose between calls, `...` for elided code), and oxc-parser gives up on the
// whole text at its first syntax error. So reading resumes after each error, as the TypeScript
// parser's recovery did: when the text before the error parses on its own, its statements are kept
// and reading goes on from the error (`grade(91)` of `grade(91) → 'A'`; the error is reported, so a
// caller can tell the statements of that line from sound ones); else the whole lines before it are
// kept, and the statement the error is in becomes one Unparsed stretch: through the error's line and
// the lines of the brackets it left open (`addExtension({` … `});` around a missing comma).
import { walk } from './esTree';
import { closers, scanBrackets } from './jsBrackets';
import { jsParser, type EsComment, type EsNode, type JsError } from './jsParser';
import { lineOf } from './lineOf';
import { lineStarts } from './lineStarts';

export interface RecoveredJs {
  /**
   * top-level statements in order, offsets into the text. A stretch that does not parse is one
   * `Unparsed` node; its `body` holds what could still be read inside it, for the readers that look
   * for calls anywhere: its head (the text before its error, or its first line, with the brackets
   * it opened closed: `http.createServer(function (req, res) {`; a node that reaches past the head
   * is marked `unclosed`, its arguments are not all there) and what reads after that (the calls of
   * a function whose body elides code with `…`, of `> f(1)` at a REPL prompt)
   */
  statements: EsNode[];
  /** every comment, sorted, those inside unparsed stretches too */
  comments: EsComment[];
  /** where the errors are: those reading resumed after, and those oxc read past (`return` outside a function) */
  errors: number[];
}

type Parsed = ReturnType<ReturnType<typeof jsParser>['parse']>;

/** Statements, comments and errors of `text`, read on after each error (with parentheses kept: spans are the text as written). */
export function parseRecovering(fileName: string, text: string): RecoveredJs {
  return read(fileName, text, true);
}

/** `withComments`: sweep unparsed stretches for their comments (not needed for the insides of one). */
function read(fileName: string, text: string, withComments: boolean): RecoveredJs {
  const read = new Reader(fileName, text);
  const statements: EsNode[] = [];
  const comments = new Map<number, EsComment>();
  const errors: number[] = [];
  const take = (r: Parsed, from: number) => {
    for (const st of r.program.body as EsNode[]) statements.push(shifted(st, from));
    for (const c of r.comments) comments.set(c.start + from, { ...c, start: c.start + from, end: c.end + from });
    for (const e of r.errors) errors.push(e.start + from);
  };
  let from = 0;
  while (from < text.length) {
    const r = read.range(from, text.length);
    if (!gaveUp(r)) {
      take(r, from);
      break;
    }
    const error = shiftedError(firstError(r), from, text.length);
    errors.push(error.start);
    const before = error.start > from ? read.range(from, error.start) : undefined;
    if (before && !before.errors.length && before.program.body.length) {
      take(before, from);
      from = error.start;
      continue;
    }
    // Else the longest run of whole lines before the error's line that parses.
    const line = lineOf(read.starts, error.start);
    let good = from;
    for (let i = line; read.starts[i] > from; i--) {
      const prefix = read.range(from, read.starts[i]);
      if (prefix.errors.length) continue;
      take(prefix, from);
      good = read.starts[i];
      break;
    }
    const end = stretchEnd(text, read.starts, good, line);
    const found = withComments ? read.commentsIn(good, end) : [];
    for (const c of found) comments.set(c.start, c);
    const span = codeSpan(text, good, end, found);
    const last = statements[statements.length - 1];
    // Lines that fail one after the other are one stretch (`<Box width={4}>` … `</Box>`).
    if (span && last?.type === 'Unparsed' && /^[^\S\n]*\n?[^\S\n]*$/.test(text.slice(last.end, span.start))) {
      last.end = span.end;
      last.body.push(...read.inside(span, error));
    } else if (span) statements.push({ type: 'Unparsed', ...span, body: read.inside(span, error) });
    from = end;
  }
  return { statements, comments: [...comments.values()].sort((a, b) => a.start - b.start), errors };
}

class Reader {
  readonly starts: number[];

  constructor(
    private readonly fileName: string,
    private readonly text: string,
  ) {
    this.starts = lineStarts(text);
  }

  /** text[from, to) parsed on its own (offsets from `from`). */
  range(from: number, to: number, tail = ''): Parsed {
    return jsParser().parse(this.fileName, this.text.slice(from, to) + tail, { preserveParens: true });
  }

  /** The comments of an unparsed stretch: each parse lexes up to its error, the next one starts there (past it when stuck). */
  commentsIn(from: number, to: number): EsComment[] {
    const out: EsComment[] = [];
    for (let pos = from; pos < to;) {
      const r = this.range(pos, to);
      for (const c of r.comments) out.push({ ...c, start: c.start + pos, end: c.end + pos });
      if (!gaveUp(r)) break;
      const e = firstError(r);
      pos += e.start > 0 ? e.start : Math.max(e.end, 1);
    }
    return out;
  }

  /** What reads inside an unparsed stretch: its head, closed, and the rest from its second line or its error on. */
  inside(span: { start: number; end: number }, error: { start: number; end: number }): EsNode[] {
    const nextLine = this.starts[lineOf(this.starts, span.start) + 1] ?? this.text.length;
    const restFrom = Math.min(nextLine, Math.max(error.end, span.start + 1));
    const out: EsNode[] = [];
    // `DateTime.fromObject({ … }),` in a list: without the comma the error ends the text
    const headEnd = Math.min(restFrom, Math.max(error.start, span.start));
    const head = this.text.slice(span.start, headEnd).replace(/[\s,;]+$/, '');
    if (head) {
      const r = this.range(span.start, span.start + head.length, closers(this.text, span.start, span.start + head.length));
      if (!gaveUp(r))
        for (const st of r.program.body as EsNode[])
          walk(st, (n) => {
            if (n.end > head.length) n.unclosed = true;
          });
      if (!gaveUp(r)) out.push(...(r.program.body as EsNode[]).map((st) => shifted(st, span.start)));
    }
    // what the error points at, when it is a whole expression: `f(x)` of `f(x) = [1, 2]`
    if (error.end > error.start && restFrom >= error.end) {
      const r = this.range(error.start, error.end);
      if (!r.errors.length) out.push(...(r.program.body as EsNode[]).map((st) => shifted(st, error.start)));
    }
    if (restFrom < span.end)
      out.push(...read(this.fileName, this.text.slice(restFrom, span.end), false).statements.map((st) => shifted(st, restFrom)));
    return out;
  }
}

/** oxc returns an empty program when it stopped at an error; an error beside statements is one it read past. */
function gaveUp(r: Parsed): boolean {
  return r.errors.length > 0 && r.program.body.length === 0;
}

function firstError(r: Parsed): JsError {
  return r.errors.reduce((a, b) => (b.start < a.start ? b : a));
}

function shiftedError(e: JsError, from: number, length: number): { start: number; end: number } {
  return { start: Math.min(length, from + e.start), end: Math.min(length, from + Math.max(e.start, e.end)) };
}

/**
 * Where an unparsed stretch from `from` ends: after the error's line, or after a later line that
 * closes the brackets the stretch opened, when one does.
 */
function stretchEnd(text: string, starts: number[], from: number, errorLine: number): number {
  const lineEnd = (line: number) => (line + 1 < starts.length ? starts[line + 1] : text.length);
  const open: string[] = [];
  let i = from;
  for (let line = lineOf(starts, from); line < starts.length; line++) {
    const end = lineEnd(line);
    if (i < end) i = scanBrackets(text, i, end, open);
    if (line >= errorLine && !open.length) return end;
  }
  return lineEnd(errorLine);
}

/** From the first to the last character of `text[from, to)` that is neither blank nor inside a comment. */
function codeSpan(text: string, from: number, to: number, comments: EsComment[]): { start: number; end: number } | undefined {
  const inComment = (i: number) => comments.some((c) => i >= c.start && i < c.end);
  let start = from;
  while (start < to && (/\s/.test(text[start]) || inComment(start))) start++;
  let end = to;
  while (end > start && (/\s/.test(text[end - 1]) || inComment(end - 1))) end--;
  return start < end ? { start, end } : undefined;
}

/** A statement of a parse that started at `from`, moved to offsets in the whole text. */
function shifted(st: EsNode, from: number): EsNode {
  if (from)
    walk(st, (n) => {
      n.start += from;
      n.end += from;
    });
  return st;
}
