// A runner's JavaScript/TypeScript config file read as data from its syntax tree, never run: the
// object `module.exports`, `export default` or `export =` gives (also through defineConfig(…), a
// top-level const, or a function that returns an object literal). Only literal values are read;
// anything computed (a variable, a call, a spread) is named in `computed`, so the caller can say
// which setting it could not read instead of guessing.
import type { EsNode } from '../../util/jsParser';

export interface StaticConfig {
  value: Record<string, unknown>;
  /** dotted paths of settings whose value is computed (`testMatch`, `test.include`, `projects[1]`) */
  computed: string[];
}

/** The config object of a parsed config file, or undefined when it exports no object AMTP can find. */
export function staticConfig(program: EsNode): StaticConfig | undefined {
  const consts = topLevelConsts(program);
  const exported = exportedExpression(program);
  const obj = exported && objectOf(exported, consts, 0);
  if (!obj) return undefined;
  const computed: string[] = [];
  const value = literal(obj, '', computed, consts, 0) as Record<string, unknown>;
  return { value, computed };
}

function topLevelConsts(program: EsNode): Map<string, EsNode> {
  const out = new Map<string, EsNode>();
  for (const st of program.body as EsNode[]) {
    const decl = st.type === 'ExportNamedDeclaration' ? (st.declaration as EsNode | null) : st;
    if (decl?.type !== 'VariableDeclaration') continue;
    for (const d of decl.declarations as EsNode[]) if (d.id.type === 'Identifier' && d.init) out.set(d.id.name, d.init);
  }
  return out;
}

function exportedExpression(program: EsNode): EsNode | undefined {
  for (const st of [...(program.body as EsNode[])].reverse()) {
    if (st.type === 'ExportDefaultDeclaration') return st.declaration;
    if (st.type === 'TSExportAssignment') return st.expression;
    const e = st.type === 'ExpressionStatement' ? (st.expression as EsNode) : undefined;
    const left = e?.type === 'AssignmentExpression' ? (e.left as EsNode) : undefined;
    if (
      left?.type === 'MemberExpression' &&
      left.object.type === 'Identifier' &&
      left.object.name === 'module' &&
      left.property.type === 'Identifier' &&
      left.property.name === 'exports'
    )
      return e!.right;
  }
  return undefined;
}

/** The object literal an exported expression stands for. */
function objectOf(n: EsNode, consts: Map<string, EsNode>, depth: number): EsNode | undefined {
  if (depth > 4) return undefined;
  switch (n.type) {
    case 'ObjectExpression':
      return n;
    case 'TSAsExpression':
    case 'TSSatisfiesExpression':
    case 'ParenthesizedExpression':
      return objectOf(n.expression, consts, depth + 1);
    case 'Identifier':
      return consts.has(n.name) ? objectOf(consts.get(n.name)!, consts, depth + 1) : undefined;
    case 'CallExpression': // defineConfig({...}), defineConfig(() => ({...}))
      return n.arguments[0] ? objectOf(n.arguments[0], consts, depth + 1) : undefined;
    case 'ArrowFunctionExpression':
    case 'FunctionExpression':
    case 'FunctionDeclaration': {
      if (n.body.type !== 'BlockStatement') return objectOf(n.body, consts, depth + 1);
      const ret = (n.body.body as EsNode[]).find((s) => s.type === 'ReturnStatement');
      return ret?.argument ? objectOf(ret.argument, consts, depth + 1) : undefined;
    }
    default:
      return undefined;
  }
}

const COMPUTED = undefined;

/** A literal value as JSON (a regex as its pattern); what is computed is left out and its path noted. */
function literal(n: EsNode, path: string, computed: string[], consts: Map<string, EsNode>, depth: number): unknown {
  switch (n.type) {
    case 'Literal':
    case 'StringLiteral':
    case 'NumericLiteral':
    case 'BooleanLiteral':
      return n.regex ? String(n.regex.pattern) : n.value;
    case 'TemplateLiteral':
      if (n.expressions.length === 0) return String(n.quasis[0].value.cooked);
      break;
    case 'ArrayExpression':
      return (n.elements as (EsNode | null)[]).flatMap((el, i) => {
        if (!el || el.type === 'SpreadElement') {
          computed.push(`${path}[${i}]`);
          return [];
        }
        const v = literal(el, `${path}[${i}]`, computed, consts, depth);
        return v === COMPUTED ? [] : [v];
      });
    case 'ObjectExpression':
      return objectValue(n, path, computed, consts, depth);
    case 'Identifier':
      if (consts.has(n.name) && depth < 4) return literal(consts.get(n.name)!, path, computed, consts, depth + 1);
      if (n.name === 'undefined') return COMPUTED;
      break;
    case 'TSAsExpression':
    case 'TSSatisfiesExpression':
      return literal(n.expression, path, computed, consts, depth);
  }
  computed.push(path || '(config)');
  return COMPUTED;
}

function objectValue(n: EsNode, path: string, computed: string[], consts: Map<string, EsNode>, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of n.properties as EsNode[]) {
    const key = p.type === 'Property' && !p.computed ? keyOf(p.key) : undefined;
    if (key === undefined) {
      computed.push(`${path || '(config)'}{…}`);
      continue;
    }
    const at = path ? `${path}.${key}` : key;
    if (p.method || p.kind === 'get' || p.kind === 'set') {
      computed.push(at);
      continue;
    }
    const v = literal(p.value, at, computed, consts, depth);
    if (v !== COMPUTED) out[key] = v;
  }
  return out;
}

function keyOf(k: EsNode): string | undefined {
  if (k.type === 'Identifier') return k.name;
  return typeof k.value === 'string' || typeof k.value === 'number' ? String(k.value) : undefined;
}
