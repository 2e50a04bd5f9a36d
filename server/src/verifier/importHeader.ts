// A test file's import lines: the statements above its first test that bind names (JavaScript/
// TypeScript `import …` and `const … = require(…)`, Python `import …` / `from … import …`). A repair
// session sees them, and may replace them when the test does not load because of a wrong import.
import type * as TS from 'typescript';
import { typescript } from '../util/typescript';
import { isPython } from './testFile';

export interface ImportHeader {
  start: number;
  end: number;
  text: string;
}

export function importHeader(path: string, content: string): ImportHeader {
  const end = isPython(path) ? pythonHeaderEnd(content) : jsHeaderEnd(path, content);
  const start = 0;
  return { start, end, text: content.slice(start, end) };
}

/** The file with its import lines replaced (a trailing newline kept). */
export function replaceImports(path: string, content: string, imports: string): string {
  const h = importHeader(path, content);
  const text = imports.endsWith('\n') ? imports : imports + '\n';
  return content.slice(0, h.start) + text + content.slice(h.end).replace(/^\n?/, '');
}

function jsHeaderEnd(path: string, content: string): number {
  const ts = typescript();
  const kind = /\.[cm]?tsx?$/.test(path) ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const sf = ts.createSourceFile(path, content, ts.ScriptTarget.Latest, true, kind);
  let end = 0;
  for (const st of sf.statements) {
    if (!ts.isImportDeclaration(st) && !isRequire(ts, st) && !isUseStrict(ts, st)) break;
    end = st.getEnd();
  }
  return end && content[end] === '\n' ? end + 1 : end;
}

function isRequire(ts: typeof TS, st: TS.Statement): boolean {
  return (
    ts.isVariableStatement(st) &&
    st.declarationList.declarations.every((d) => !!d.initializer && /\brequire\(/.test(d.initializer.getText()))
  );
}

function isUseStrict(ts: typeof TS, st: TS.Statement): boolean {
  return ts.isExpressionStatement(st) && ts.isStringLiteral(st.expression) && st.expression.text === 'use strict';
}

/** Leading imports, comments and blank lines, with parenthesised `from x import (…)` continuations. */
function pythonHeaderEnd(content: string): number {
  let end = 0;
  let pos = 0;
  let open = false;
  for (const line of content.split('\n')) {
    const next = pos + line.length + 1;
    if (open || /^(import\s|from\s+\S+\s+import\s)/.test(line)) {
      open = (open || line.includes('(')) && !line.includes(')');
      end = Math.min(next, content.length);
    } else if (line.trim() && !line.startsWith('#')) break;
    pos = next;
  }
  return end;
}
