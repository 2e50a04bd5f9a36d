// A module's `__all__`, read from its syntax tree with literal-only evaluation: the crawler never
// imports the module. What counts as a literal here: strings (implicit concatenation too), lists,
// tuples and sets of them, `'a b c'.split()` (and `.split(sep)` with a literal separator), `+` of
// those, `list()`/`tuple()`/`sorted()` around one, a comprehension that yields its loop variable
// over one, and a module-level name bound earlier to one. `+=`, `.extend(...)` and `.append(...)`
// add to it. Anything else (`dir()`, a filter) makes `__all__` unknown, so the module falls back
// to the underscore convention rather than exporting nothing.
import type { Node } from 'web-tree-sitter';
import { stringValue } from './pyStringNode';

type Lit = string | string[];

const WRAPPERS = new Set(['list', 'tuple', 'sorted', 'set', 'frozenset']);

/** The names `__all__` holds, or undefined when the module sets none or it cannot be evaluated. */
export function dunderAll(root: Node): Set<string> | undefined {
  const env = new Map<string, Lit>();
  let names: string[] | undefined;
  let unknown = false;
  for (const st of root.namedChildren) {
    const e = st.type === 'expression_statement' ? st.namedChildren[0] : undefined;
    if (!e) continue;
    const left = e.childForFieldName('left')?.text;
    if (e.type === 'assignment' && left && /^[A-Za-z_]\w*$/.test(left)) {
      const value = evaluate(e.childForFieldName('right'), env);
      if (value === undefined) env.delete(left);
      else env.set(left, value);
      if (left === '__all__') {
        names = Array.isArray(value) ? [...value] : undefined;
        unknown = !Array.isArray(value);
      }
    } else if (e.type === 'augmented_assignment' && left === '__all__') {
      const value = evaluate(e.childForFieldName('right'), env);
      if (Array.isArray(value)) names = [...(names ?? []), ...value];
      else unknown = true;
    } else if (e.type === 'call' && /^__all__\.(extend|append)$/.test(e.childForFieldName('function')?.text ?? '')) {
      const arg = e.childForFieldName('arguments')?.namedChildren[0];
      const value = evaluate(arg ?? null, env);
      if (value === undefined) unknown = true;
      else names = [...(names ?? []), ...(typeof value === 'string' ? [value] : value)];
    }
  }
  return names && !unknown ? new Set(names.filter(Boolean)) : undefined;
}

function evaluate(n: Node | null, env: Map<string, Lit>): Lit | undefined {
  if (!n) return undefined;
  switch (n.type) {
    case 'string':
      return stringValue(n);
    case 'concatenated_string': {
      const parts = n.namedChildren.map(stringValue);
      return parts.every((p) => p !== undefined) ? parts.join('') : undefined;
    }
    case 'parenthesized_expression':
      return evaluate(n.namedChildren[0] ?? null, env);
    case 'list':
    case 'tuple':
    case 'set':
      return items(n.namedChildren, env);
    case 'identifier':
      return env.get(n.text);
    case 'binary_operator':
      return concat(n, env);
    case 'call':
      return callValue(n, env);
    case 'list_comprehension':
    case 'generator_expression':
    case 'set_comprehension':
      return comprehension(n, env);
    default:
      return undefined;
  }
}

function items(nodes: Node[], env: Map<string, Lit>): string[] | undefined {
  const out: string[] = [];
  for (const c of nodes) {
    if (c.type === 'comment') continue;
    const v = evaluate(c, env);
    if (typeof v !== 'string') return undefined;
    out.push(v);
  }
  return out;
}

function concat(n: Node, env: Map<string, Lit>): Lit | undefined {
  if (n.childForFieldName('operator')?.text !== '+') return undefined;
  const a = evaluate(n.childForFieldName('left'), env);
  const b = evaluate(n.childForFieldName('right'), env);
  if (typeof a === 'string' && typeof b === 'string') return a + b;
  if (Array.isArray(a) && Array.isArray(b)) return [...a, ...b];
  return undefined;
}

/** `'a b'.split()`, `'a,b'.split(',')`, and list()/tuple()/sorted() of a literal. */
function callValue(n: Node, env: Map<string, Lit>): Lit | undefined {
  const fn = n.childForFieldName('function');
  const args = (n.childForFieldName('arguments')?.namedChildren ?? []).filter((a) => a.type !== 'comment');
  if (fn?.type === 'attribute' && fn.childForFieldName('attribute')?.text === 'split' && args.length <= 1) {
    const text = evaluate(fn.childForFieldName('object'), env);
    const sep = args.length ? evaluate(args[0], env) : undefined;
    if (typeof text !== 'string' || (args.length && typeof sep !== 'string') || sep === '') return undefined;
    return sep === undefined ? text.split(/\s+/).filter(Boolean) : text.split(sep as string);
  }
  if (fn?.type === 'identifier' && WRAPPERS.has(fn.text) && args.length === 1) {
    const v = evaluate(args[0], env);
    if (!Array.isArray(v)) return undefined;
    return fn.text === 'sorted' ? [...v].sort() : v;
  }
  return undefined;
}

/** `[x for x in <literal>]` with no condition: the literal's items. */
function comprehension(n: Node, env: Map<string, Lit>): Lit | undefined {
  const body = n.childForFieldName('body');
  const clauses = n.namedChildren.filter((c) => c.type === 'for_in_clause' || c.type === 'if_clause');
  if (clauses.length !== 1 || clauses[0].type !== 'for_in_clause') return undefined;
  const loop = clauses[0];
  if (body?.type !== 'identifier' || loop.childForFieldName('left')?.text !== body.text) return undefined;
  const over = evaluate(loop.childForFieldName('right'), env);
  return Array.isArray(over) ? over : undefined;
}
