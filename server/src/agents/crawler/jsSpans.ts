// Where a JavaScript/TypeScript declaration's whole source is, and which of the module's own
// top-level declarations its code uses, from the syntax tree: the Test Case Generator and the Test
// Engineer get each target's whole source and the helpers it calls, never a window cut mid-body.
import type { HelperSpan } from '../../contracts/types';
import type { ImportedName } from './importBindings';
import type { EsNode } from '../../util/jsParser';

/** Most helpers named for one symbol: a function that uses every name of its file stays bounded. */
const MAX_CALLS = 16;

export class SpanReader {
  private readonly refs = new WeakMap<EsNode, string[]>();
  private readonly used = new Set<string>();

  /**
   * @param locals the file's top-level declarations by name
   * @param startOf where a declaration's lines start (its statement: `export`, `const`)
   * @param lineOf the 1-based line of an offset
   */
  constructor(
    private readonly locals: Map<string, EsNode>,
    private readonly startOf: (node: EsNode) => number,
    private readonly lineOf: (offset: number) => number,
    /** names bound from the package's other modules (importBindings.ts): a call of one is named too */
    private readonly imported: Map<string, ImportedName> = new Map(),
  ) {}

  /** The last line of a declaration. */
  endLine(node: EsNode, startLine: number): number {
    return Math.max(startLine, this.lineOf(Math.max(node.start, node.end - 1)));
  }

  /** The top-level names `node`'s code uses directly (at most MAX_CALLS): their own helpers stay out, so a request stays small. */
  calls(node: EsNode, ownName?: string): string[] {
    const out: string[] = [];
    const queue = [...this.directRefs(node)];
    while (queue.length && out.length < MAX_CALLS) {
      const name = queue.shift()!;
      const decl = this.locals.get(name);
      if (name === ownName || out.includes(name) || (!decl && !this.imported.has(name)) || decl === node) continue;
      out.push(name);
    }
    for (const n of out) this.used.add(n);
    return out;
  }

  /** Every top-level declaration some symbol's code uses, with its lines, in file order. */
  helpers(): HelperSpan[] {
    const out: HelperSpan[] = [];
    for (const name of this.used) {
      const node = this.locals.get(name);
      if (!node) continue; // bound from another module: crossModuleHelpers() finds its lines
      const line = this.lineOf(this.startOf(node));
      out.push({ name, line, end_line: this.endLine(node, line) });
    }
    return out.sort((a, b) => a.line - b.line || (a.name < b.name ? -1 : 1));
  }

  /** The names bound from other modules that some symbol's code uses, in first-use order. */
  importedUsed(): ImportedName[] {
    return [...this.used].filter((n) => !this.locals.has(n) && this.imported.has(n)).map((n) => this.imported.get(n)!);
  }

  /** The top-level names used inside `node` (identifiers in expressions; property keys and member names are not uses). */
  private directRefs(node: EsNode): string[] {
    const known = this.refs.get(node);
    if (known) return known;
    const found = new Set<string>();
    const notUse = new WeakSet<object>();
    const stack: unknown[] = [node.type === 'VariableDeclarator' ? node.init : node];
    while (stack.length) {
      const v = stack.pop();
      if (!v || typeof v !== 'object') continue;
      if (Array.isArray(v)) {
        for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
        continue;
      }
      const n = v as EsNode;
      if (typeof n.type !== 'string') continue;
      if (n.type === 'Identifier' && !notUse.has(n) && (this.locals.has(n.name) || this.imported.has(n.name))) found.add(n.name);
      if ((n.type === 'MemberExpression' || n.type === 'TSQualifiedName') && !n.computed && n.property) notUse.add(n.property);
      if ((n.type === 'Property' || n.type === 'MethodDefinition' || n.type === 'PropertyDefinition') && !n.computed && n.key)
        if (!(n.type === 'Property' && n.shorthand)) notUse.add(n.key);
      for (const k in n) {
        if (k === 'loc' || k === 'range' || k === 'parent') continue;
        const c = n[k];
        if (c && typeof c === 'object') stack.push(c);
      }
    }
    const list = [...found];
    this.refs.set(node, list);
    return list;
  }
}
