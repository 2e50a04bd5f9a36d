// The value of a Python string literal node of tree-sitter-python, decoded the way Python does.
import type { Node } from 'web-tree-sitter';

/** The value of a string literal; undefined for f-strings and bytes, which are no docstrings. */
export function stringValue(str: Node): string | undefined {
  const prefix = /^[A-Za-z]*/.exec(str.children[0]?.text ?? '')![0].toLowerCase();
  if (prefix.includes('f') || prefix.includes('b')) return undefined;
  const content = str.children.find((c) => c.type === 'string_content');
  if (!content) return '';
  if (prefix.includes('r')) return content.text;
  // Escapes are decoded like Python does; the parser marks each one, so no scanning of the text is needed.
  let out = '';
  let at = content.startIndex;
  const text = content.text;
  const base = content.startIndex;
  for (const esc of content.children) {
    if (esc.type !== 'escape_sequence') continue;
    out += text.slice(at - base, esc.startIndex - base) + unescape(esc.text);
    at = esc.endIndex;
  }
  return out + text.slice(at - base);
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\n': '',
};

function unescape(esc: string): string {
  const c = esc.slice(1);
  if (c in SIMPLE_ESCAPES) return SIMPLE_ESCAPES[c];
  if (/^[0-7]{1,3}$/.test(c)) return String.fromCharCode(parseInt(c, 8));
  if (/^(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8})$/.test(c)) return String.fromCodePoint(parseInt(c.slice(1), 16));
  return esc; // \N{NAME} needs Unicode's name table; the escape stays as written
}
