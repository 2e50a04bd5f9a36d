// Splits a JavaScript/TypeScript snippet into statements with their trailing `//` comments,
// without a full parser: docs snippets are short and often not valid programs on their own
// (`ms('2 days')  // 172800000` has no semicolon, README blocks mix prose comments in).

export interface Statement {
  /** code without comments, trimmed, trailing `;` removed */
  code: string;
  /** text of a `//` comment on the statement's last line, if any */
  comment?: string;
  /** 0-based line of the statement's first line inside the snippet */
  line: number;
}

export type SnippetItem = Statement | { comment: string; line: number; code?: undefined };

/** Statements and stand-alone comment lines, in order. */
export function splitStatements(snippet: string): SnippetItem[] {
  const items: SnippetItem[] = [];
  const lines = snippet.replace(/\r\n?/g, '\n').split('\n');
  let pending = '';
  let pendingLine = 0;
  let depth = 0;
  let inBlockComment = false;
  for (let n = 0; n < lines.length; n++) {
    const scanned = scanLine(lines[n], inBlockComment);
    inBlockComment = scanned.inBlockComment;
    const code = scanned.code.trim();
    if (!code && depth === 0) {
      if (scanned.comment !== undefined) items.push({ comment: scanned.comment, line: n });
      continue;
    }
    if (!pending) pendingLine = n;
    pending += (pending ? '\n' : '') + scanned.code;
    depth += scanned.depth;
    if (depth <= 0) {
      for (const part of splitTopLevelSemicolons(pending)) items.push({ code: part, line: pendingLine });
      const last = items[items.length - 1];
      if (scanned.comment !== undefined && last && last.code !== undefined) last.comment = scanned.comment;
      pending = '';
      depth = 0;
    }
  }
  if (pending.trim()) items.push({ code: pending.trim().replace(/;$/, ''), line: pendingLine });
  return items;
}

interface ScannedLine {
  code: string;
  comment?: string;
  depth: number;
  inBlockComment: boolean;
}

const REGEX_PREFIX = /[(,=:[!&|?{};+\-*%<>~^]$/;

/** Strips comments from one line, tracking bracket depth; strings and regex literals are opaque. */
function scanLine(line: string, inBlockComment: boolean): ScannedLine {
  let code = '';
  let depth = 0;
  let i = 0;
  while (i < line.length) {
    if (inBlockComment) {
      const end = line.indexOf('*/', i);
      if (end < 0) return { code, depth, inBlockComment: true };
      i = end + 2;
      inBlockComment = false;
      continue;
    }
    const c = line[i];
    if (c === '/' && line[i + 1] === '/') return { code, comment: line.slice(i + 2).trim(), depth, inBlockComment };
    if (c === '/' && line[i + 1] === '*') {
      inBlockComment = true;
      i += 2;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') {
      const end = skipQuoted(line, i, c);
      code += line.slice(i, end);
      i = end;
      continue;
    }
    if (c === '/' && REGEX_PREFIX.test(code.trimEnd() || '(')) {
      const end = skipRegex(line, i);
      code += line.slice(i, end);
      i = end;
      continue;
    }
    if ('([{'.includes(c)) depth++;
    if (')]}'.includes(c)) depth--;
    code += c;
    i++;
  }
  return { code, depth, inBlockComment };
}

function skipQuoted(line: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < line.length) {
    if (line[i] === '\\') i += 2;
    else if (line[i] === quote) return i + 1;
    else i++;
  }
  return line.length;
}

function skipRegex(line: string, start: number): number {
  let i = start + 1;
  let inClass = false;
  while (i < line.length) {
    const c = line[i];
    if (c === '\\') i += 2;
    else if (c === '[') (inClass = true), i++;
    else if (c === ']') (inClass = false), i++;
    else if (c === '/' && !inClass) {
      i++;
      while (/[a-z]/.test(line[i] ?? '')) i++;
      return i;
    } else i++;
  }
  return line.length;
}

/** `a(); b()` on one line is two statements; semicolons inside brackets or strings are not separators. */
function splitTopLevelSemicolons(code: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (let i = 0; i < code.length; i++) {
    const c = code[i];
    if (c === '"' || c === "'" || c === '`') {
      const end = skipQuoted(code, i, c);
      current += code.slice(i, end);
      i = end - 1;
      continue;
    }
    if ('([{'.includes(c)) depth++;
    if (')]}'.includes(c)) depth--;
    if (c === ';' && depth === 0) {
      if (current.trim()) parts.push(current.trim());
      current = '';
      continue;
    }
    current += c;
  }
  if (current.trim()) parts.push(current.trim());
  return parts;
}
