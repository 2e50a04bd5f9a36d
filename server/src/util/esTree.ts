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
