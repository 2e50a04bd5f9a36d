// Which of a Python module's own top-level names a definition's code uses, and their lines, from
// the tree-sitter tree (the Python side of jsSpans.ts): the Test Case Generator and the Test Engineer
// get each target's whole source and the helpers it calls.
import type { Node } from 'web-tree-sitter';
import type { HelperSpan } from '../../contracts/types';

const MAX_CALLS = 16;

export class PySpanReader {
  /** top-level definitions and assignments by name */
  private readonly locals = new Map<string, Node>();
  private readonly refs = new Map<number, string[]>();
  private readonly used = new Set<string>();

  constructor(root: Node) {
    for (const st of root.namedChildren) {
      const def = st.type === 'decorated_definition' ? st.childForFieldName('definition') : st;
      if (def?.type === 'function_definition' || def?.type === 'class_definition') {
        const name = def.childForFieldName('name')?.text;
        if (name) this.locals.set(name, st);
      } else if (st.type === 'expression_statement') {
        const e = st.namedChildren[0];
        const left = e?.type === 'assignment' ? e.childForFieldName('left') : undefined;
        if (left?.type === 'identifier' && left.text !== '__all__') this.locals.set(left.text, st);
      }
    }
  }

  /** The top-level names `node` uses directly (at most MAX_CALLS). */
  calls(node: Node, ownName: string): string[] {
    const out: string[] = [];
    const queue = [...this.directRefs(node)];
    while (queue.length && out.length < MAX_CALLS) {
      const name = queue.shift()!;
      const decl = this.locals.get(name);
      if (name === ownName || out.includes(name) || !decl) continue;
      out.push(name);
    }
    for (const n of out) this.used.add(n);
    return out;
  }

  helpers(): HelperSpan[] {
    return [...this.used]
      .map((name) => {
        const n = this.locals.get(name)!;
        return { name, line: n.startPosition.row + 1, end_line: n.endPosition.row + 1 };
      })
      .sort((a, b) => a.line - b.line || (a.name < b.name ? -1 : 1));
  }

  private directRefs(node: Node): string[] {
    const known = this.refs.get(node.id);
    if (known) return known;
    const found = new Set<string>();
    for (const id of node.descendantsOfType('identifier')) {
      if (!id || !this.locals.has(id.text)) continue;
      const parent = id.parent;
      // `obj.name` and `f(name=…)` name no top-level binding.
      if (parent?.type === 'attribute' && parent.childForFieldName('attribute')?.id === id.id) continue;
      if (parent?.type === 'keyword_argument' && parent.childForFieldName('name')?.id === id.id) continue;
      found.add(id.text);
    }
    const list = [...found];
    this.refs.set(node.id, list);
    return list;
  }
}
