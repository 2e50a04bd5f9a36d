// Python syntax trees from @lezer/python (the CodeMirror grammar: in-process, synchronous, and it
// recovers from errors, so a broken file still shows its test functions). Used for structure:
// where a function, class, decorator or string starts and ends. Whether code is valid Python is
// CPython's call where python3 exists (pySyntax.ts).
import type { parser as LezerPython } from '@lezer/python';

export type PyTree = ReturnType<typeof LezerPython.parse>;
export type PyNode = PyTree['topNode'];

let parser: typeof LezerPython | undefined;

export function parsePython(text: string): PyTree {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- building the grammar's tables costs a fresh process ~15 ms: only once Python is parsed
  parser ??= (require('@lezer/python') as typeof import('@lezer/python')).parser;
  return parser.parse(text);
}

/** The first syntax error (lezer marks each with an error node), as a text offset. */
export function firstError(tree: PyTree): number | undefined {
  let at: number | undefined;
  tree.iterate({
    enter: (n) => {
      if (at !== undefined) return false;
      if (n.type.isError) at = n.from;
      return undefined;
    },
  });
  return at;
}

/** The direct children of a node, in order. */
export function childrenOf(node: PyNode): PyNode[] {
  const out: PyNode[] = [];
  for (let c = node.firstChild; c; c = c.nextSibling) out.push(c);
  return out;
}

/**
 * Offsets of the line starts that lie inside a string (a triple-quoted one, or implicitly joined
 * ones in brackets). Indenting such a line would change the string's value, so it keeps its text.
 */
export function linesInsideStrings(text: string, tree: PyTree = parsePython(text)): Set<number> {
  const out = new Set<number>();
  tree.iterate({
    enter: (n) => {
      if (n.name !== 'String' && n.name !== 'FormatString') return undefined;
      for (let nl = text.indexOf('\n', n.from); nl >= 0 && nl + 1 < n.to; nl = text.indexOf('\n', nl + 1)) out.add(nl + 1);
      return false;
    },
  });
  return out;
}

/** `line:column`, 1-based. */
export function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return `${line}:${offset - (before.lastIndexOf('\n') + 1) + 1}`;
}
