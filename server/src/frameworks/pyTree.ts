// Python syntax trees from tree-sitter (frameworks/pyGrammar.ts, the crawler's grammar too): in-process,
// synchronous once loaded, and it recovers from errors, so a broken file still shows its test
// functions. Used for structure: where a function, class, decorator or string starts and ends.
// Whether code is valid Python is CPython's call where python3 exists (pySyntax.ts).
import type { Node } from 'web-tree-sitter';
import { pythonParser } from './pyGrammar';

export type PyNode = Node;

/**
 * Reads `text`'s tree: the tree lives in WebAssembly memory, so it is freed when `read` returns and
 * no node may be kept past it.
 */
export function withPythonTree<T>(text: string, read: (root: PyNode) => T): T {
  const tree = pythonParser().parser.parse(text);
  if (!tree) throw new Error('the Python parser returned no tree');
  try {
    return read(tree.rootNode);
  } finally {
    tree.delete();
  }
}

/**
 * Visits `node` and its descendants in order; `enter` returning false skips a node's children.
 * A cursor walk: one WebAssembly call per step instead of a child array per node.
 */
export function walkPython(node: PyNode, enter: (n: PyNode) => boolean | void): void {
  const cursor = node.walk();
  try {
    for (let depth = 0; ;) {
      if (enter(cursor.currentNode) !== false && cursor.gotoFirstChild()) {
        depth++;
        continue;
      }
      for (;;) {
        if (depth === 0) return;
        if (cursor.gotoNextSibling()) break;
        cursor.gotoParent();
        depth--;
      }
    }
  } finally {
    cursor.delete();
  }
}

/** The first syntax error (an ERROR node, or a token tree-sitter had to assume MISSING), as a text offset. */
export function firstError(root: PyNode): number | undefined {
  if (!root.hasError) return undefined;
  let at: number | undefined;
  walkPython(root, (n) => {
    if (at !== undefined || !n.hasError) return false;
    if (n.isError || n.isMissing) at = n.startIndex;
    return at === undefined;
  });
  return at;
}

/** A name as Python binds or reads it: an identifier that is not an attribute's name (`obj.name`). */
export function isVariableName(n: PyNode): boolean {
  if (n.type !== 'identifier') return false;
  const p = n.parent;
  return !(p?.type === 'attribute' && p.childForFieldName('attribute')?.id === n.id);
}

/** One statement that is an expression (`f(x)`, `a, b`), not an assignment. */
export function isExpressionStatement(n: PyNode): boolean {
  return n.type === 'expression_statement' && !n.namedChildren.some((c) => c?.type === 'assignment' || c?.type === 'augmented_assignment');
}

/** The statements of a module or block, comments left out. */
export function statementsOf(node: PyNode): PyNode[] {
  return node.namedChildren.filter((c): c is PyNode => !!c && c.type !== 'comment');
}

/**
 * Offsets of the line starts that lie inside a string (a triple-quoted one, or implicitly joined
 * ones in brackets). Indenting such a line would change the string's value, so it keeps its text.
 */
export function linesInsideStrings(text: string): Set<number> {
  const out = new Set<number>();
  withPythonTree(text, (root) =>
    walkPython(root, (n) => {
      if (n.type !== 'string') return true;
      for (let nl = text.indexOf('\n', n.startIndex); nl >= 0 && nl + 1 < n.endIndex; nl = text.indexOf('\n', nl + 1)) out.add(nl + 1);
      return false;
    }),
  );
  return out;
}

/** `line:column`, 1-based. */
export function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return `${line}:${offset - (before.lastIndexOf('\n') + 1) + 1}`;
}
