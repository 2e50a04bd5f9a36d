// Renaming one free name in an oracle's snippet (its setup or call), found on the syntax tree: the
// test file binds the module's export under another local when two cases of one file would bind the
// same local to different imports (agents/engineer/rebind.ts). Property names, object keys and
// keyword arguments that merely spell the name are left alone; a snippet that declares the name
// itself (an assignment, a parameter, an import) is not renamed at all, since which uses mean the
// import could not be told.
import type * as TS from 'typescript';
import { typescript } from '../util/typescript';
import { isVariableName, withPythonTree, type PyNode } from './pyTree';

export type SnippetShape = 'expression' | 'statements';

/** `text` with every free use of `from` renamed `to`, or undefined when it cannot be done safely. */
export function renameInSnippet(
  text: string,
  from: string,
  to: string,
  language: 'javascript' | 'python',
  shape: SnippetShape,
): string | undefined {
  const edits = language === 'python' ? pythonEdits(text, from, to) : jsEdits(text, from, to, shape);
  if (!edits) return undefined;
  let out = text;
  for (const e of [...edits].sort((a, b) => b.at - a.at)) out = out.slice(0, e.at) + e.text + out.slice(e.at + e.length);
  return out;
}

interface Edit {
  at: number;
  length: number;
  text: string;
}

function jsEdits(text: string, from: string, to: string, shape: SnippetShape): Edit[] | undefined {
  const ts = typescript();
  // An expression is parsed inside parentheses so an object literal is not read as a block.
  const offset = shape === 'expression' ? 1 : 0;
  const source = shape === 'expression' ? `(${text}\n)` : text;
  const sf = ts.createSourceFile('snippet.tsx', source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const edits: Edit[] = [];
  let declares = false;
  const visit = (node: TS.Node): void => {
    if (ts.isIdentifier(node) && node.text === from) {
      const use = jsUse(ts, node);
      if (use === 'declaration') declares = true;
      else if (use === 'shorthand') edits.push({ at: node.end - offset, length: 0, text: `: ${to}` });
      else if (use === 'reference') edits.push({ at: node.getStart(sf) - offset, length: node.end - node.getStart(sf), text: to });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return declares ? undefined : edits;
}

/** What an identifier spelled like the renamed name is: a use of the binding, a name of something else, or a declaration. */
function jsUse(ts: typeof TS, node: TS.Identifier): 'reference' | 'name' | 'shorthand' | 'declaration' {
  const p = node.parent;
  if (ts.isShorthandPropertyAssignment(p)) return 'shorthand';
  if (
    (ts.isPropertyAccessExpression(p) && p.name === node) ||
    (ts.isQualifiedName(p) && p.right === node) ||
    ((ts.isPropertyAssignment(p) ||
      ts.isMethodDeclaration(p) ||
      ts.isPropertyDeclaration(p) ||
      ts.isGetAccessor(p) ||
      ts.isSetAccessor(p)) &&
      p.name === node) ||
    ((ts.isImportSpecifier(p) || ts.isExportSpecifier(p) || ts.isBindingElement(p)) && p.propertyName === node) ||
    ts.isLabeledStatement(p) ||
    ts.isBreakOrContinueStatement(p) ||
    ts.isJsxAttribute(p) ||
    ts.isPropertySignature(p) ||
    ts.isTypeReferenceNode(p)
  )
    return 'name';
  if ('name' in p && (p as { name?: TS.Node }).name === node && !ts.isPropertyAccessExpression(p)) return 'declaration';
  if (ts.isImportClause(p) || ts.isNamespaceImport(p)) return 'declaration';
  return 'reference';
}

function pythonEdits(text: string, from: string, to: string): Edit[] | undefined {
  const edits: Edit[] = [];
  let declares = false;
  withPythonTree(text, (root) => {
    for (const n of root.descendantsOfType('identifier')) {
      if (!n || n.text !== from || !isVariableName(n)) continue;
      const use = pyUse(n);
      if (use === 'declaration') declares = true;
      else if (use === 'reference') edits.push({ at: n.startIndex, length: n.endIndex - n.startIndex, text: to });
    }
  });
  return declares ? undefined : edits;
}

/** Nodes whose names, written directly in them, are bound there: parameters, patterns, a comprehension's clauses. */
const PY_BINDERS = new Set([
  'parameters',
  'lambda_parameters',
  'typed_parameter',
  'list_splat_pattern',
  'dictionary_splat_pattern',
  'pattern_list',
  'tuple_pattern',
  'list_pattern',
  'as_pattern_target',
  'for_in_clause',
]);
/** Nodes whose `name` or `left` field binds: `def f`, `class C`, `x = …`, `x += …`, `for x in …`, `a=1` as a parameter. */
const PY_NAMED = new Set([
  'function_definition',
  'class_definition',
  'assignment',
  'augmented_assignment',
  'for_statement',
  'default_parameter',
  'typed_default_parameter',
]);

function pyUse(node: PyNode): 'reference' | 'keyword' | 'declaration' {
  const parent = node.parent;
  if (!parent) return 'declaration';
  const isField = (field: string) => parent.childForFieldName(field)?.id === node.id;
  if (parent.type === 'keyword_argument' && isField('name')) return 'keyword';
  if (PY_NAMED.has(parent.type) && (isField('name') || isField('left'))) return 'declaration';
  if (PY_BINDERS.has(parent.type) || /comprehension|generator_expression/.test(parent.type)) return 'declaration';
  // `import a.b as c`, `from m import x`: every name of an import binds or names a module.
  for (let p: PyNode | null = parent; p; p = p.parent) if (/import/.test(p.type)) return 'declaration';
  return 'reference';
}
