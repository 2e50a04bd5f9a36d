// The function that holds a source line (the guide's per-function survivors): on oxc's syntax tree
// (ESTree) for JavaScript/TypeScript, on tree-sitter's for Python. The innermost named function or
// method wins; an unnamed callback belongs to the function around it; code outside any function is
// `(module)` with the statement that holds the line.
import { withPythonTree, type PyNode } from '../frameworks/pyTree';
import { nameOfKey, walk } from '../util/esTree';
import { jsParser, type EsNode } from '../util/jsParser';
import { lineStarts } from '../util/lineStarts';

export interface FunctionSpan {
  name: string;
  /** 1-based, inclusive */
  startLine: number;
  endLine: number;
  source: string;
}

export function functionAt(file: string, source: string, line: number): FunctionSpan {
  return file.endsWith('.py') ? pythonFunctionAt(source, line) : jsFunctionAt(file, source, line);
}

const lineOf = (source: string, offset: number) => source.slice(0, offset).split('\n').length;

function span(source: string, name: string, from: number, to: number): FunctionSpan {
  // A Python block's node runs to the next line's start: the function ends at its last character.
  while (to > from && /\s/.test(source[to - 1])) to--;
  const startLine = lineOf(source, from);
  const endLine = lineOf(source, to);
  return {
    name,
    startLine,
    endLine,
    source: source
      .split('\n')
      .slice(startLine - 1, endLine)
      .join('\n'),
  };
}

function jsFunctionAt(file: string, source: string, line: number): FunctionSpan {
  // Parenthesized expressions kept: `x = (function () {})` names no function `x`.
  const { program } = jsParser().parse(file, source, { preserveParens: true });
  const at = lineStarts(source)[Math.max(0, line - 1)] ?? source.length;
  const lineEnd = source.indexOf('\n', at) < 0 ? source.length : source.indexOf('\n', at);
  const starts = new Map<EsNode, number>();
  const startOf = (n: EsNode) => starts.get(n) ?? Math.min(n.start, n.decorators?.[0]?.start ?? n.start);
  const overlaps = (n: EsNode) => startOf(n) <= lineEnd && n.end >= at;
  // Names a node gets from its parent: a variable's, a property's, an assignment's target, a method's class.
  const given = new Map<EsNode, string>();
  const classOf = new Map<EsNode, string>();
  let found: { name: string; start: number; end: number } | undefined;
  walk(program, (n) => {
    if (n.type === 'ExportNamedDeclaration' || n.type === 'ExportDefaultDeclaration') {
      // An exported declaration starts at `export` (or at a decorator before it).
      if (n.declaration) starts.set(n, Math.min(n.start, startOf(n.declaration))).set(n.declaration, startOf(n));
    }
    if (!overlaps(n)) return false;
    nameChildren(n, source, given, classOf);
    const name = jsName(n, given, classOf);
    const start = startOf(n);
    // The innermost wins (the last one a walk in source order meets).
    if (name && (!found || start > found.start || (start === found.start && n.end <= found.end))) found = { name, start, end: n.end };
  });
  if (found) return span(source, found.name, found.start, found.end);
  const statement = program.body.find(overlaps) as EsNode | undefined;
  if (statement) return span(source, '(module)', startOf(statement), statement.end);
  // The end of the file counts as a statement on the last line.
  if (lineEnd === source.length) return span(source, '(module)', source.length, source.length);
  return { name: '(module)', startLine: line, endLine: line, source: source.split('\n')[line - 1] ?? '' };
}

const FUNCTIONS = new Set([
  'FunctionDeclaration',
  'TSDeclareFunction',
  'FunctionExpression',
  'ArrowFunctionExpression',
  'TSFunctionType',
  'TSConstructorType',
]);
const CLASS_PROPERTIES = new Set(['PropertyDefinition', 'AccessorProperty', 'TSAbstractPropertyDefinition', 'TSAbstractAccessorProperty']);

/** Records the names `n` gives its children: `f = () => {}`, `{ f: function () {} }`, `class A { m() {} }`. */
function nameChildren(n: EsNode, source: string, given: Map<EsNode, string>, classOf: Map<EsNode, string>): void {
  const give = (child: EsNode | null | undefined, name: string) => child && given.set(child, name);
  if (n.type === 'VariableDeclarator' && n.id.type === 'Identifier') {
    give(n.init, n.id.name);
    give(n.id.typeAnnotation?.typeAnnotation, n.id.name); // `const f: () => void`
  } else if ((n.type === 'Property' && n.kind === 'init' && !n.method) || CLASS_PROPERTIES.has(n.type)) {
    if (n.computed || n.key.type !== 'Identifier') return;
    give(n.value, n.key.name);
    give(n.typeAnnotation?.typeAnnotation, n.key.name);
  } else if (n.type === 'AssignmentExpression' || n.type === 'BinaryExpression' || n.type === 'LogicalExpression') {
    give(n.right, source.slice(n.left.start, n.left.end));
  } else if (n.type === 'SequenceExpression') {
    const [first, ...rest] = n.expressions as EsNode[];
    rest.forEach((e, i) => give(e, source.slice(first.start, n.expressions[i].end)));
  } else if ((n.type === 'ClassDeclaration' || n.type === 'ClassExpression') && n.id) {
    for (const m of n.body.body as EsNode[]) classOf.set(m, n.id.name);
  }
}

/** A function's name: its own, its variable's or property's, with its class for a method. A constructor has none (as
 * TypeScript's tree gave it none): its lines go to the code around the class. */
function jsName(n: EsNode, given: Map<EsNode, string>, classOf: Map<EsNode, string>): string | undefined {
  if (FUNCTIONS.has(n.type)) return n.id?.name || given.get(n) || undefined;
  const method = n.type === 'MethodDefinition' || n.type === 'TSAbstractMethodDefinition';
  if (!method && n.type !== 'TSMethodSignature' && !(n.type === 'Property' && (n.method || n.kind !== 'init'))) return undefined;
  if (n.kind === 'constructor' || n.computed) return undefined;
  const key = n.key.type === 'PrivateIdentifier' ? `#${n.key.name}` : nameOfKey(n.key);
  if (!key) return undefined;
  const cls = method && n.kind === 'method' ? classOf.get(n) : undefined;
  return cls ? `${cls}.${key}` : key;
}

function pythonFunctionAt(source: string, line: number): FunctionSpan {
  const lineStart = source
    .split('\n')
    .slice(0, line - 1)
    .reduce((n, l) => n + l.length + 1, 0);
  return withPythonTree(source, (root) => {
    let best: { name: string; node: PyNode } | undefined;
    let statement: PyNode | undefined;
    const visit = (node: PyNode, classes: string[]) => {
      for (const c of node.children) {
        if (!c || c.startIndex > lineStart + 1 || c.endIndex < lineStart) continue;
        if (node.id === root.id && !statement) statement = c;
        const isDef = c.type === 'function_definition' || c.type === 'class_definition';
        const text = (isDef && c.childForFieldName('name')?.text) || '';
        if (c.type === 'function_definition') best = { name: [...classes, text].join('.'), node: c };
        visit(c, c.type === 'class_definition' ? [...classes, text] : classes);
      }
    };
    visit(root, []);
    const node = best?.node ?? statement;
    if (!node) return { name: '(module)', startLine: line, endLine: line, source: source.split('\n')[line - 1] ?? '' };
    return span(source, best?.name ?? '(module)', node.startIndex, node.endIndex);
  });
}
