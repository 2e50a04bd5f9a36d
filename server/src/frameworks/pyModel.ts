// A pytest file as data (module docstring, import groups, test functions of statements) and its
// printer. Indentation is the printer's job: every statement's lines are indented to their block,
// except the lines that continue a multi-line string, whose text is the string's value.
import { linesInsideStrings } from './pyTree';

/** One statement (any number of lines), or a compound head (`with …:`) with its indented body. */
export type PyStatement = { code: string } | { head: string; body: PyStatement[] };

export interface PyFunction {
  name: string;
  /** a Python string literal (already quoted) */
  docstring: string;
  body: PyStatement[];
  /** parameters: the pytest fixtures the body uses (`tmp_path`, `monkeypatch`) */
  params?: string[];
  /** the case id, as a comment on the `def` line (frameworks/caseMap.ts reads it there) */
  caseId?: string;
}

export interface PyModule {
  /** a Python string literal (already quoted) */
  docstring: string;
  /** import lines; groups are separated by a blank line */
  imports: string[][];
  functions: PyFunction[];
}

const INDENT = '    ';

export function printModule(m: PyModule): string {
  const head = `${m.docstring}\n${m.imports
    .filter((g) => g.length)
    .map((g) => g.join('\n'))
    .join('\n\n')}`;
  // PEP 8: two blank lines around top-level functions.
  return [head, ...m.functions.map(printFunction)].join('\n\n\n') + '\n';
}

export function printFunction(fn: PyFunction): string {
  return [
    `def ${fn.name}(${(fn.params ?? []).join(', ')}):${fn.caseId ? `  # ${fn.caseId}` : ''}`,
    indent(fn.docstring, INDENT),
    ...fn.body.map((s) => printStatement(s, INDENT)),
  ].join('\n');
}

/** Statements as text at the left margin: a test body as an artifact records it. */
export function printStatements(statements: PyStatement[]): string {
  return statements.map((s) => printStatement(s, '')).join('\n');
}

function printStatement(s: PyStatement, prefix: string): string {
  if ('code' in s) return indent(s.code, prefix);
  return [indent(s.head, prefix), ...s.body.map((b) => printStatement(b, prefix + INDENT))].join('\n');
}

function indent(code: string, prefix: string): string {
  const keep = linesInsideStrings(code);
  let at = 0;
  return code
    .split('\n')
    .map((line) => {
      const start = at;
      at += line.length + 1;
      return keep.has(start) || !line.trim() ? line : prefix + line;
    })
    .join('\n');
}

/** A Python string literal for `text`: triple-quoted when that needs no escape, else JSON-style. */
export function pyDocstring(text: string, quote: (s: string) => string): string {
  return /^[^"\\\x00-\x1f\x7f]*$/.test(text) && !/["\s]$/.test(text) ? `"""${text}"""` : quote(text);
}
