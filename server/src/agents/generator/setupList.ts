// The statements a docs snippet runs before its documented calls, with the names each declares and
// uses (from the TypeScript syntax tree), so each example carries only the setup its call needs:
// the declarations it reads, transitively, and the block's own side-effect statements. A name bound
// twice keeps the later binding for the calls after it; declarations carry over to later README blocks.
import type * as TS from 'typescript';
import { parseLiteral } from '../../frameworks/literals';
import { typescript } from '../../util/typescript';

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

  add(code: string, node: TS.Node, shown = false): void {
    const declares = declaredNames(node);
    for (const name of declares) this.forget(name);
    this.entries.push({ code, declares, uses: usedNames(node), carried: false, receivers: receiverNames(node), shown });
  }

  /** The literal text a `const name = <literal>` statement binds (the later binding wins), if any. */
  literalOf(name: string): string | undefined {
    const ts = typescript();
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const e = this.entries[i];
      if (!e.declares.has(name)) continue;
      const sf = ts.createSourceFile('setup.ts', e.code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
      const [st] = sf.statements;
      if (sf.statements.length !== 1 || !st || !ts.isVariableStatement(st)) return undefined;
      const decl = st.declarationList.declarations.find((d) => ts.isIdentifier(d.name) && d.name.text === name);
      const text = decl?.initializer?.getText(sf);
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
    const ts = typescript();
    const sf = ts.createSourceFile('call.ts', `(${call})`, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const needed = usedNames(sf);
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

function declaredNames(node: TS.Node): Set<string> {
  const ts = typescript();
  const out = new Set<string>();
  const bind = (n: TS.BindingName) => {
    if (ts.isIdentifier(n)) out.add(n.text);
    else for (const el of n.elements) if (!ts.isOmittedExpression(el)) bind(el.name);
  };
  if (ts.isVariableStatement(node)) for (const d of node.declarationList.declarations) bind(d.name);
  else if ((ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node)) && node.name) out.add(node.name.text);
  return out;
}

/** Identifiers whose methods a statement calls (`queue` of `queue.pop()`, `a` of `a.b.push(1)`). */
function receiverNames(root: TS.Node): Set<string> {
  const ts = typescript();
  const out = new Set<string>();
  const visit = (n: TS.Node) => {
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression)) {
      let target: TS.Expression = n.expression.expression;
      while (ts.isPropertyAccessExpression(target)) target = target.expression;
      if (ts.isIdentifier(target)) out.add(target.text);
    }
    n.forEachChild(visit);
  };
  visit(root);
  return out;
}

/** Identifiers read as values: not property names after a dot, not object literal keys. */
function usedNames(root: TS.Node): Set<string> {
  const ts = typescript();
  const out = new Set<string>();
  const visit = (n: TS.Node) => {
    if (ts.isIdentifier(n)) {
      const p = n.parent;
      const isMember = p && ts.isPropertyAccessExpression(p) && p.name === n;
      const isKey = p && (ts.isPropertyAssignment(p) || ts.isMethodDeclaration(p)) && p.name === n;
      if (!isMember && !isKey) out.add(n.text);
      return;
    }
    n.forEachChild(visit);
  };
  visit(root);
  return out;
}
