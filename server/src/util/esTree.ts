// Small questions about ESTree nodes (from oxc) that the JS readers ask: what a declaration declares,
// CommonJS export targets, requires, string literals, key names, a tree walk.
import type { EsNode } from './jsParser';

/** What a declaration declares: a declarator's initializer, a method's function, an assignment's right side. */
export function valueOf(node: EsNode): EsNode | undefined {
  switch (node.type) {
    case 'VariableDeclarator':
      return node.init ?? undefined;
    case 'MethodDefinition':
    case 'TSAbstractMethodDefinition':
    case 'Property':
      return node.value;
    case 'ExpressionStatement':
      return node.expression.type === 'AssignmentExpression' && isFunctionOrClass(node.expression.right)
        ? node.expression.right
        : undefined;
    default:
      return node;
  }
}

export function isFunctionOrClass(n: EsNode): boolean {
  return n.type === 'FunctionExpression' || n.type === 'ArrowFunctionExpression' || n.type === 'ClassExpression';
}

/** `module.exports`, or the property name of `module.exports.x` / `exports.x` / `exports['x']`. */
export function cjsTarget(left: EsNode): string | undefined {
  if (left.type !== 'MemberExpression') return undefined;
  if (isModuleExports(left)) return 'module.exports';
  const obj = left.object as EsNode;
  if (!isModuleExports(obj) && !(obj.type === 'Identifier' && obj.name === 'exports')) return undefined;
  if (!left.computed) return left.property.type === 'Identifier' ? left.property.name : undefined;
  return isString(left.property) ? left.property.value : undefined;
}

function isModuleExports(n: EsNode): boolean {
  return (
    n.type === 'MemberExpression' &&
    !n.computed &&
    n.object.type === 'Identifier' &&
    n.object.name === 'module' &&
    n.property.type === 'Identifier' &&
    n.property.name === 'exports'
  );
}

export function isRequire(n: EsNode): boolean {
  return n.type === 'CallExpression' && n.callee.type === 'Identifier' && n.callee.name === 'require';
}

export function isString(n: EsNode): boolean {
  return (n.type === 'Literal' || n.type === 'StringLiteral') && typeof n.value === 'string';
}

/** An export specifier's or property key's name (identifiers and string literals). */
export function nameOfKey(n: EsNode | null | undefined): string | undefined {
  if (!n) return undefined;
  if (n.type === 'Identifier') return n.name;
  return isString(n) ? n.value : undefined;
}

/** The nodes of `root` (itself included) that `keep` picks, in source order: an enclosing node before those inside it. */
export function nodesWhere(root: EsNode, keep: (n: EsNode) => boolean): EsNode[] {
  const out: EsNode[] = [];
  walk(root, (n) => {
    if (keep(n)) out.push(n);
  });
  return out.sort((a, b) => a.start - b.start || b.end - a.end);
}

/**
 * Visits every node once, depth-first, each before its children (siblings in no set order); `visit`
 * returning false skips the node's children. Iterative: a deeply nested file cannot overflow the stack.
 */
export function walk(root: EsNode, visit: (n: EsNode) => boolean | void): void {
  const stack: unknown[] = [root];
  while (stack.length) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) if (v[i] && typeof v[i] === 'object') stack.push(v[i]);
      continue;
    }
    const n = v as EsNode;
    if (typeof n.type !== 'string' || visit(n) === false) continue;
    for (const k in n) {
      if (k === 'loc' || k === 'range' || k === 'parent') continue;
      const c = n[k];
      if (c && typeof c === 'object') stack.push(c);
    }
  }
}

/** A string literal or a template literal without substitutions (`'x'`, `` `x` ``): its value. */
export function staticString(n: EsNode | null | undefined): string | undefined {
  if (!n) return undefined;
  if (isString(n)) return n.value;
  return n.type === 'TemplateLiteral' && !n.expressions.length ? (n.quasis[0]?.value.cooked ?? undefined) : undefined;
}

/** The declaration an `export` statement wraps (`export const x = 1`, `export default function f() {}`), else the statement. */
export function unexported(st: EsNode): EsNode {
  if (st.type === 'ExportNamedDeclaration' && st.declaration) return st.declaration;
  if (st.type === 'ExportDefaultDeclaration' && /^(?:FunctionDeclaration|ClassDeclaration)$/.test(st.declaration.type))
    return st.declaration;
  return st;
}

/** The names a binding pattern binds (`a`, `{ b, c: [d = 1, ...e] }`). */
export function boundNames(pattern: EsNode | null | undefined, out: string[] = []): string[] {
  if (!pattern) return out;
  switch (pattern.type) {
    case 'Identifier':
      out.push(pattern.name);
      break;
    case 'ObjectPattern':
      for (const p of pattern.properties) boundNames(p.type === 'RestElement' ? p.argument : p.value, out);
      break;
    case 'ArrayPattern':
      for (const el of pattern.elements) boundNames(el, out);
      break;
    case 'AssignmentPattern':
      boundNames(pattern.left, out);
      break;
    case 'RestElement':
      boundNames(pattern.argument, out);
      break;
  }
  return out;
}
