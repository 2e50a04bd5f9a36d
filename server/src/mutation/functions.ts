// The function that holds a source line (the guide's per-function survivors): on TypeScript's syntax
// tree for JavaScript/TypeScript, on tree-sitter's for Python. The innermost named function or
// method wins; an unnamed callback belongs to the function around it; code outside any function is
// `(module)` with the statement that holds the line.
import type * as TS from 'typescript';
import { withPythonTree, type PyNode } from '../frameworks/pyTree';
import { typescript } from '../util/typescript';

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
  const ts = typescript();
  const kind = /\.[cm]?tsx?$/.test(file) ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, kind);
  const at = sf.getPositionOfLineAndCharacter(Math.max(0, line - 1), 0);
  const lineEnd = source.indexOf('\n', at) < 0 ? source.length : source.indexOf('\n', at);
  let found: { name: string; node: TS.Node } | undefined;
  let statement: TS.Node | undefined;
  const visit = (n: TS.Node): void => {
    if (n.getStart(sf) > lineEnd || n.getEnd() < at) return;
    if (!statement && ts.isSourceFile(n.parent)) statement = n;
    const name = ts.isFunctionLike(n) ? jsName(ts, n, sf) : undefined;
    if (name) found = { name, node: n };
    ts.forEachChild(n, visit);
  };
  ts.forEachChild(sf, visit);
  const node = found?.node ?? statement;
  if (!node) return { name: '(module)', startLine: line, endLine: line, source: source.split('\n')[line - 1] ?? '' };
  return span(source, found?.name ?? '(module)', node.getStart(sf), node.getEnd());
}

/** A function's name: its own, its variable's or property's, with its class for a method. */
function jsName(ts: typeof TS, n: TS.SignatureDeclaration, sf: TS.SourceFile): string | undefined {
  const own = n.name && (ts.isIdentifier(n.name) || ts.isStringLiteral(n.name) || ts.isPrivateIdentifier(n.name)) ? n.name.text : undefined;
  const p = n.parent;
  const via =
    (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) && ts.isIdentifier(p.name)
      ? p.name.text
      : ts.isBinaryExpression(p) && p.right === n
        ? p.left.getText(sf)
        : undefined;
  const name = own ?? via;
  if (!name) return undefined;
  const cls = ts.isClassLike(p) ? p.name?.text : undefined;
  return cls && ts.isMethodDeclaration(n) ? `${cls}.${name}` : ts.isConstructorDeclaration(n) ? `${cls ?? 'class'}.constructor` : name;
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
