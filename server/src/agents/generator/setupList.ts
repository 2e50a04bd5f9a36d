// The statements a docs snippet runs before its documented calls, with the names each declares and
// uses (from the syntax tree oxc reads), so each example carries only the setup its call needs:
// the declarations it reads, transitively, and the block's own side-effect statements. A name bound
// twice keeps the later binding for the calls after it; declarations carry over to later README blocks.
import { parseLiteral } from '../../frameworks/literals';
import { boundNames, unexported, walk } from '../../util/esTree';
import { jsParser, type EsNode } from '../../util/jsParser';

interface Entry {
  code: string;
  declares: Set<string>;
  uses: Set<string>;
  /** from an earlier README block: kept only when a later call needs what it declares */
  carried: boolean;
  /** locals whose methods it calls (`queue` of `queue.pop()`): it may change them */
  receivers: Set<string>;
  /** a documented call itself (`queue.pop(); // returns 5`): replayed only before calls on what it changes */
  shown: boolean;
}

export class SetupList {
  private entries: Entry[] = [];

  add(code: string, node: EsNode, shown = false): void {
    const declares = declaredNames(node);
    for (const name of declares) this.forget(name);
    this.entries.push({ code, declares, uses: usedNames(node), carried: false, receivers: receiverNames(node), shown });
  }

  /** The literal text a `const name = <literal>` statement binds (the later binding wins), if any. */
  literalOf(name: string): string | undefined {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const e = this.entries[i];
      if (!e.declares.has(name)) continue;
      const body = jsParser().parse('setup.ts', e.code, { preserveParens: true }).program.body as EsNode[];
      const st = body.length === 1 ? unexported(body[0]) : undefined;
      if (st?.type !== 'VariableDeclaration') return undefined;
      const init = (st.declarations as EsNode[]).find((d) => d.id.type === 'Identifier' && d.id.name === name)?.init;
      const text = init ? e.code.slice(init.start, init.end) : undefined;
      return text !== undefined && parseLiteral(text) !== undefined ? text : undefined;
    }
    return undefined;
  }

  /** A later import or declaration of `name` replaces the earlier binding. */
  forget(name: string): void {
    this.entries = this.entries.filter((e) => !e.declares.has(name));
  }

  /** A copy for one block: what earlier blocks declared, marked as carried. */
  fork(): SetupList {
    const copy = new SetupList();
    copy.entries = this.entries.map((e) => ({ ...e, carried: true }));
    return copy;
  }

  /** Keeps the declarations of a finished block for the blocks after it. */
  adoptDeclarations(block: SetupList): void {
    this.entries = block.entries.filter((e) => e.declares.size > 0).map((e) => ({ ...e, carried: true }));
  }

  /**
   * The statements `call` needs, in order: the declarations it reads, transitively, the block's own
   * side-effect statements, and the statements that call a method of a local it reads, documented
   * calls included (`var top = queue.pop(); // returns 5` comes before `queue.length; // returns 2`).
   */
  neededBy(call: string): string[] {
    const needed = usedNames(jsParser().parse('call.ts', `(${call})`).program);
    const keep: Entry[] = [];
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const e = this.entries[i];
      const declaresNeeded = [...e.declares].some((n) => needed.has(n));
      const local = (n: string) => this.entries.slice(0, i).some((x) => x.declares.has(n));
      const changesNeeded = [...e.receivers].some((n) => needed.has(n) && local(n));
      if (e.shown ? !changesNeeded : !declaresNeeded && !changesNeeded && (e.carried || e.declares.size > 0)) continue;
      keep.unshift(e);
      for (const n of e.uses) needed.add(n);
    }
    return keep.map((e) => e.code);
  }
}

function declaredNames(node: EsNode): Set<string> {
  const st = unexported(node);
  if (st.type === 'VariableDeclaration') return new Set((st.declarations as EsNode[]).flatMap((d) => boundNames(d.id)));
  if ((st.type === 'FunctionDeclaration' || st.type === 'ClassDeclaration') && st.id) return new Set([st.id.name as string]);
  return new Set();
}

/** Identifiers whose methods a statement calls (`queue` of `queue.pop()`, `a` of `a.b.push(1)`). */
function receiverNames(root: EsNode): Set<string> {
  const out = new Set<string>();
  walk(root, (n) => {
    if (n.type !== 'CallExpression' || !isDotAccess(n.callee)) return;
    let target: EsNode = n.callee.object;
    while (isDotAccess(target)) target = target.object;
    if (target.type === 'Identifier') out.add(target.name);
  });
  return out;
}

const isDotAccess = (n: EsNode) => n.type === 'MemberExpression' && !n.computed;

/** Identifiers read as values: not property names after a dot, not object literal keys nor method names. */
function usedNames(root: EsNode): Set<string> {
  const out = new Set<string>();
  const names = new Set<EsNode>();
  walk(root, (n) => {
    if (isDotAccess(n)) names.add(n.property);
    else if (n.type === 'ObjectExpression') {
      for (const p of n.properties) if (p.type === 'Property' && p.kind === 'init' && !p.computed && !p.shorthand) names.add(p.key);
    } else if (n.type === 'MethodDefinition' && !n.computed && (n.kind === 'method' || n.kind === 'constructor')) names.add(n.key);
    else if (n.type === 'Identifier' && !names.has(n)) out.add(n.name);
  });
  return out;
}
