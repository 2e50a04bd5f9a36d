// Renaming one free name in an oracle's snippet (its setup or call), found on the syntax tree: the
// test file binds the module's export under another local when two cases of one file would bind the
// same local to different imports (agents/engineer/rebind.ts). Property names, object keys and
// keyword arguments that merely spell the name are left alone; a snippet that declares the name
// itself (an assignment, a parameter, an import) is not renamed at all, since which uses mean the
// import could not be told.
import type * as TS from 'typescript';
import { typescript } from '../util/typescript';
import { parsePython, type PyNode } from './pyTree';

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
  const tree = parsePython(text);
  const edits: Edit[] = [];
  let declares = false;
  tree.iterate({
    enter: (n) => {
      if (n.name !== 'VariableName' || text.slice(n.from, n.to) !== from) return;
      const use = pyUse(n.node);
      if (use === 'declaration') declares = true;
      else if (use === 'reference') edits.push({ at: n.from, length: n.to - n.from, text: to });
    },
  });
  return declares ? undefined : edits;
}

const PY_BINDERS = new Set([
  'ImportStatement',
  'ParamList',
  'FunctionDefinition',
  'ClassDefinition',
  'ForStatement',
  'WithStatement',
  'LambdaExpression',
]);

function pyUse(node: PyNode): 'reference' | 'keyword' | 'declaration' {
  const parent = node.parent;
  const next = node.nextSibling;
  if (parent?.name === 'ArgList' && next?.name === 'AssignOp') return 'keyword';
  if (next?.name === 'AssignOp' || next?.name === 'UpdateOp') return 'declaration';
  if (!parent || PY_BINDERS.has(parent.name) || /Comprehension/.test(parent.name) || parent.name === 'TupleExpression') {
    // A tuple is a declaration only as an assignment's target; a comprehension binds its own names.
    if (parent?.name === 'TupleExpression' && parent.nextSibling?.name !== 'AssignOp') return 'reference';
    return 'declaration';
  }
  return 'reference';
}
