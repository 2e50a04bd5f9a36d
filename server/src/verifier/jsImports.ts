// After tests are removed from a JavaScript/TypeScript file, the imports only they used are dead
// (`const { valid } = require('../index.js')` with no test left that calls valid). They go too,
// but only those the removal left unused: an import the file did not use before stays as written.
import type * as TS from 'typescript';
import { typescript } from '../util/typescript';
import { removeRanges } from './testEdits';

/** One imported local name and the top-level statement that binds it. */
interface ImportedName {
  local: string;
  statement: TS.Statement;
}

function parse(path: string, content: string): TS.SourceFile {
  const ts = typescript();
  const kind = /\.[cm]?tsx?$/.test(path) ? ts.ScriptKind.TSX : ts.ScriptKind.JSX;
  return ts.createSourceFile(path, content, ts.ScriptTarget.Latest, true, kind);
}

/** Top-level `import … from 'x'` and `const … = require('x')` (or `= m` of such a binding) and the names they bind. */
function importedNames(ts: typeof TS, sf: TS.SourceFile): ImportedName[] {
  const out: ImportedName[] = [];
  const locals = new Set<string>();
  for (const st of sf.statements) {
    if (ts.isImportDeclaration(st) && st.importClause && !st.importClause.isTypeOnly) {
      const c = st.importClause;
      if (c.name) out.push({ local: c.name.text, statement: st });
      if (c.namedBindings && ts.isNamespaceImport(c.namedBindings)) out.push({ local: c.namedBindings.name.text, statement: st });
      if (c.namedBindings && ts.isNamedImports(c.namedBindings))
        for (const e of c.namedBindings.elements) out.push({ local: e.name.text, statement: st });
    }
    if (!ts.isVariableStatement(st) || st.declarationList.declarations.length !== 1) continue;
    const d = st.declarationList.declarations[0];
    const init = d.initializer;
    const required =
      init &&
      ((ts.isCallExpression(init) && ts.isIdentifier(init.expression) && init.expression.text === 'require') ||
        (ts.isIdentifier(init) && locals.has(init.text)));
    if (!required) continue;
    const names = ts.isIdentifier(d.name)
      ? [d.name.text]
      : ts.isObjectBindingPattern(d.name)
        ? d.name.elements.flatMap((e) => (ts.isIdentifier(e.name) ? [e.name.text] : []))
        : [];
    for (const local of names) {
      locals.add(local);
      out.push({ local, statement: st });
    }
  }
  return out;
}

/** How often each name is read outside the import statements (property names and declarations do not count). */
function uses(ts: typeof TS, sf: TS.SourceFile, skip: Set<TS.Statement>): Map<string, number> {
  const count = new Map<string, number>();
  const visit = (n: TS.Node): void => {
    if (skip.has(n as TS.Statement)) return;
    if (ts.isIdentifier(n)) {
      const p = n.parent;
      const isPropertyName = (ts.isPropertyAccessExpression(p) && p.name === n) || (ts.isPropertyAssignment(p) && p.name === n);
      if (!isPropertyName) count.set(n.text, (count.get(n.text) ?? 0) + 1);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return count;
}

function unusedImports(path: string, content: string): { unused: Set<string>; names: ImportedName[]; sf: TS.SourceFile } {
  const ts = typescript();
  const sf = parse(path, content);
  const names = importedNames(ts, sf);
  const read = uses(ts, sf, new Set(names.map((x) => x.statement)));
  // `const { a } = m` reads m
  for (const x of names) {
    const init = ts.isVariableStatement(x.statement) ? x.statement.declarationList.declarations[0].initializer : undefined;
    if (init && ts.isIdentifier(init)) read.set(init.text, (read.get(init.text) ?? 0) + 1);
  }
  return { unused: new Set(names.filter((x) => !read.get(x.local)).map((x) => x.local)), names, sf };
}

/** The text of one dead name inside a statement that keeps others: the element and the comma after (or before) it. */
function elementRange(ts: typeof TS, sf: TS.SourceFile, st: TS.Statement, local: string): { start: number; end: number } | undefined {
  let elements: readonly (TS.BindingElement | TS.ImportSpecifier)[] = [];
  if (ts.isVariableStatement(st)) {
    const name = st.declarationList.declarations[0].name;
    if (ts.isObjectBindingPattern(name)) elements = name.elements;
  } else if (ts.isImportDeclaration(st) && st.importClause?.namedBindings && ts.isNamedImports(st.importClause.namedBindings))
    elements = st.importClause.namedBindings.elements;
  const i = elements.findIndex((e) => ts.isIdentifier(e.name) && e.name.text === local);
  if (i < 0) return undefined;
  const e = elements[i];
  return i + 1 < elements.length
    ? { start: e.getStart(sf), end: elements[i + 1].getStart(sf) }
    : i > 0
      ? { start: elements[i - 1].getEnd(), end: e.getEnd() }
      : undefined;
}

/**
 * `after` without the imported names that `before` used and `after` uses nowhere: a statement left
 * with no used name goes whole, a destructuring loses the dead names. Repeated until nothing more
 * dies (`const { a } = m` removed makes `const m = require(…)` dead).
 */
export function dropDeadImports(path: string, before: string, after: string): string {
  const was = unusedImports(path, before).unused;
  let text = after;
  for (let pass = 0; pass < 3; pass++) {
    const next = dropOnce(path, was, text);
    if (next === text) break;
    text = next;
  }
  return text;
}

function dropOnce(path: string, was: Set<string>, text: string): string {
  const ts = typescript();
  const now = unusedImports(path, text);
  const dead = new Set([...now.unused].filter((local) => !was.has(local)));
  if (!dead.size) return text;
  const byStatement = new Map<TS.Statement, string[]>();
  for (const x of now.names) byStatement.set(x.statement, [...(byStatement.get(x.statement) ?? []), x.local]);
  const ranges: { start: number; end: number }[] = [];
  for (const [st, locals] of byStatement) {
    if (locals.every((l) => dead.has(l))) {
      const nl = text.indexOf('\n', st.getEnd());
      ranges.push({ start: text.lastIndexOf('\n', st.getStart(now.sf) - 1) + 1, end: nl < 0 ? text.length : nl + 1 });
    } else
      for (const l of locals.filter((x) => dead.has(x))) {
        const r = elementRange(ts, now.sf, st, l);
        if (r) ranges.push(r);
      }
  }
  return removeRanges(text, ranges);
}
