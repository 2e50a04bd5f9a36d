// Merges a freshly rendered AMTP test file into the one already on disk, on the syntax tree: a
// test whose case id is already there replaces it, a new one goes after the file's last test, and
// everything else (earlier AMTP tests, a person's own tests and edits) stays as it is. The imports
// the new tests need are added when the file does not bind those names yet. A scoped run (one
// function from a CodeLens, --only, --changed-since) therefore never loses the rest of the file, and
// a run with --into-existing adds its tests to the person's own file without changing theirs.
import type * as TS from 'typescript';
import { jsSyntaxError } from '../frameworks/jsSnippet';
import { checkPython } from '../frameworks/pySyntax';
import { statementsOf, withPythonTree, type PyNode } from '../frameworks/pyTree';
import { typescript } from '../util/typescript';
import { applyEdits, type Edit } from '../util/textEdits';
import {
  findTests,
  freelyNamed,
  isPython,
  removeTests,
  replaceTest,
  replaceTests,
  testNames,
  withIdComment,
  type TestBlock,
} from './testFile';

/** `existing` without the AMTP tests (those with a case id) that `incoming` does not carry, `keep` aside; unchanged when that would leave none. */
function withoutUnplanned(path: string, existing: string, incoming: string, keep: ReadonlySet<string>): string {
  const planned = new Set(findTests(path, incoming).map((b) => b.caseId));
  const gone = findTests(path, existing)
    .map((b) => b.caseId)
    .filter((id) => !planned.has(id) && !keep.has(id));
  if (!gone.length || gone.length === findTests(path, existing).length) return existing;
  return removeTests(path, existing, gone);
}

/**
 * The merged file, or undefined when the two cannot be merged safely (then it is a whole-file overwrite).
 * With `append` (the person's own file, `--into-existing`), a file without AMTP tests yet gets the
 * new file's body, its tests and the helpers they use, after everything already in it; without it,
 * such a file is not merged into (an earlier run's file the person replaced is theirs to keep or not).
 * The tests of the cases in `keep` (tests the person accepted) stay in `existing` exactly as they are.
 */
export function mergeTestFile(
  path: string,
  existing: string,
  incoming: string,
  opts: { append?: boolean; replace?: boolean; keep?: ReadonlySet<string> } = {},
): string | undefined {
  const keep = opts.keep ?? new Set<string>();
  // An incremental run re-planned the whole module: its earlier AMTP tests that were not planned again go (the person's stay).
  if (opts.replace) existing = withoutUnplanned(path, existing, incoming, keep);
  const ours = findTests(path, existing);
  const theirs = findTests(path, incoming).filter((t) => !keep.has(t.caseId));
  if (!theirs.length || (!ours.length && !opts.append)) return undefined;
  try {
    let out = withImports(path, existing, incoming, !ours.length);
    if (out === undefined) return undefined;
    if (!ours.length) out = appended(path, out, incoming);
    else {
      const present = new Set(ours.map((b) => b.caseId));
      const again = theirs.filter((t) => present.has(t.caseId));
      const added = theirs.filter((t) => !present.has(t.caseId));
      // Every test merged in keeps a name no other test of the file has: a new one whose name the file
      // already has (an earlier case's, the person's), and a kept one whose new text drops the free
      // name an earlier merge gave it (` (2)`).
      const taken = testNames(
        path,
        removeTests(
          path,
          existing,
          again.map((b) => b.caseId),
        ),
      );
      const named = (test: string) => {
        const text = freelyNamed(path, test, taken);
        for (const name of testNames(path, text)) taken.add(name);
        return text;
      };
      if (again.length) out = replaceTests(path, out, new Map(again.map((b) => [b.caseId, named(fromLineStart(incoming, b))])));
      if (added.length) {
        const last = findTests(path, out)
          .sort((a, b) => a.end - b.end)
          .pop()!;
        // The last test is replaced by itself followed by the new ones: one edit, re-indented together.
        const gap = isPython(path) ? '\n\n\n' : '\n\n';
        const texts = added.map((b) => named(withIdComment(path, fromLineStart(incoming, b), b.caseId)));
        out = replaceTest(path, out, last.caseId, [fromLineStart(out, last), ...texts].join(gap));
      }
    }
    return parses(path, out) ? out : undefined;
  } catch {
    return undefined;
  }
}

/** `existing` followed by `incoming` without its header comment and imports (the merge has added those it needs). */
function appended(path: string, existing: string, incoming: string): string {
  const imports = isPython(path) ? pythonImports(incoming) : jsImports(path, incoming);
  const body = incoming.slice(imports.length ? imports[imports.length - 1].end : 0).replace(/^\s+/, '');
  const gap = isPython(path) ? '\n\n\n' : '\n\n';
  return existing.replace(/\s+$/, '') + gap + body.replace(/\s*$/, '\n');
}

/** A test's text from the start of its first line, so every line keeps its indentation relative to the others. */
function fromLineStart(content: string, b: TestBlock): string {
  return content.slice(content.lastIndexOf('\n', b.start - 1) + 1, b.end);
}

function parses(path: string, content: string): boolean {
  if (isPython(path)) return !checkPython([{ key: 'file', snippets: [{ field: 'the merged file', source: content, mode: 'exec' }] }]).size;
  return jsSyntaxError(path, content) === undefined;
}

interface ImportStatement {
  text: string;
  names: string[];
  end: number;
  /** a plain list of names (`const { a, b: c } = require('x')`, `import { a } from 'x'`): each name's text, where the list is */
  list?: { elements: { name: string; text: string }[]; source: string; start: number; end: number };
}

/**
 * `existing` with the names of `incoming`'s imports it does not bind yet: added to its own list
 * from the same module (one import per module; never in the person's own file, `keepTheirs`), or
 * as a statement after its last import. undefined when a name the file binds would come from
 * somewhere else, or a statement binds some names that are there and some that are not and is no list.
 */
function withImports(path: string, existing: string, incoming: string, keepTheirs: boolean): string | undefined {
  const read = isPython(path) ? pythonImports : (text: string) => jsImports(path, text);
  const have = read(existing);
  const bound = new Set(have.flatMap((s) => s.names));
  const listed = new Map(have.flatMap((h) => h.list?.elements.map((e) => [e.name, `${h.list?.source}\n${e.text}`] as const) ?? []));
  const missing: string[] = [];
  const edits: Edit[] = [];
  for (const s of read(incoming)) {
    if (s.names.every((n) => bound.has(n))) continue;
    const list = s.list;
    const need = list?.elements.filter((e) => !bound.has(e.name));
    if (!list || !need) {
      if (s.names.some((n) => bound.has(n))) return undefined;
      missing.push(s.text);
    } else {
      // a name the file binds already must be the same export of the same module
      if (list.elements.some((e) => bound.has(e.name) && listed.get(e.name) !== `${list.source}\n${e.text}`)) return undefined;
      const target = keepTheirs ? undefined : have.find((h) => h.list?.source === list.source);
      if (target?.list) {
        const at = target.end - target.text.length + target.list.end;
        edits.push({ start: at, end: at, text: need.map((e) => `, ${e.text}`).join('') });
      } else missing.push(s.text.slice(0, list.start) + need.map((e) => e.text).join(', ') + s.text.slice(list.end));
    }
    for (const n of s.names) bound.add(n);
  }
  const at = have.length ? have[have.length - 1].end : 0;
  const insert = !missing.length ? '' : have.length ? '\n' + missing.join('\n') : missing.join('\n') + '\n';
  return applyEdits(existing, [...edits, ...(insert ? [{ start: at, end: at, text: insert }] : [])]);
}

/** Top-level `import …` and `const … = require(…)` statements (and `const { a } = m` of a bound m) with the names they bind. */
function jsImports(path: string, text: string): ImportStatement[] {
  const ts = typescript();
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, /\.[cm]?tsx?$/.test(path) ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  const out: ImportStatement[] = [];
  const bound = new Set<string>();
  for (const st of sf.statements) {
    const names = ts.isImportDeclaration(st)
      ? importNames(ts, st)
      : ts.isVariableStatement(st) && requires(ts, st, bound)
        ? st.declarationList.declarations.flatMap((d) => bindingNames(ts, d.name))
        : undefined;
    if (!names) continue;
    names.forEach((n) => bound.add(n));
    const start = st.getStart(sf);
    out.push({ text: text.slice(start, st.end), names, end: st.end, ...nameList(ts, sf, st, start) });
  }
  return out;
}

/** The statement's list of names, when it is only that, with offsets inside the statement's text. */
function nameList(ts: typeof TS, sf: TS.SourceFile, st: TS.Statement, start: number): Pick<ImportStatement, 'list'> {
  let elements: readonly (TS.BindingElement | TS.ImportSpecifier)[] | undefined;
  let source: string | undefined;
  if (ts.isImportDeclaration(st) && st.importClause && !st.importClause.name && !st.importClause.isTypeOnly) {
    const b = st.importClause.namedBindings;
    if (b && ts.isNamedImports(b)) [elements, source] = [b.elements, `import ${st.moduleSpecifier.getText(sf)}`];
  } else if (ts.isVariableStatement(st) && st.declarationList.declarations.length === 1) {
    const d = st.declarationList.declarations[0];
    if (ts.isObjectBindingPattern(d.name) && d.initializer) [elements, source] = [d.name.elements, d.initializer.getText(sf)];
  }
  if (!elements?.length || !source || elements.some((e) => !ts.isIdentifier(e.name))) return {};
  return {
    list: {
      elements: elements.map((e) => ({ name: (e.name as TS.Identifier).text, text: e.getText(sf) })),
      source,
      start: elements[0].getStart(sf) - start,
      end: elements[elements.length - 1].getEnd() - start,
    },
  };
}

function importNames(ts: typeof TS, st: TS.ImportDeclaration): string[] {
  const clause = st.importClause;
  if (!clause) return [];
  const names = clause.name ? [clause.name.text] : [];
  const b = clause.namedBindings;
  if (b && ts.isNamespaceImport(b)) names.push(b.name.text);
  else if (b) names.push(...b.elements.map((e) => e.name.text));
  return names;
}

function requires(ts: typeof TS, st: TS.VariableStatement, bound: Set<string>): boolean {
  const isRequire = (e: TS.Expression | undefined): boolean =>
    !!e &&
    ((ts.isCallExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === 'require') ||
      (ts.isIdentifier(e) && bound.has(e.text)) ||
      (ts.isPropertyAccessExpression(e) && isRequire(e.expression)));
  return st.declarationList.declarations.every((d) => isRequire(d.initializer));
}

function bindingNames(ts: typeof TS, name: TS.BindingName): string[] {
  if (ts.isIdentifier(name)) return [name.text];
  return name.elements.flatMap((e) => (ts.isOmittedExpression(e) ? [] : bindingNames(ts, e.name)));
}

/** Top-level `import a.b as c` / `from m import x as y, z` statements with the names they bind. */
function pythonImports(text: string): ImportStatement[] {
  return withPythonTree(text, (root) =>
    statementsOf(root)
      .filter((node) => /^(?:future_)?import(?:_from)?_statement$/.test(node.type))
      .map((node) => {
        // A comment at the end of the line (`# noqa: F401`) belongs to the statement: it moves with it.
        const own = node.text.replace(/\s+$/, '');
        const comment = /^[ \t]*#[^\n]*/.exec(text.slice(node.startIndex + own.length))?.[0] ?? '';
        return { text: own + comment, names: importedNames(node), end: node.startIndex + own.length + comment.length };
      }),
  );
}

/** `import a.b` binds `a`; `import a as b` and `from m import x as b` bind `b`; `from m import x` binds `x`; `from m import *` is `*`. */
function importedNames(node: PyNode): string[] {
  if (node.children.some((c) => c?.type === 'wildcard_import')) return ['*'];
  return node.childrenForFieldName('name').flatMap((n) => {
    if (!n) return [];
    const bound = n.type === 'aliased_import' ? n.childForFieldName('alias') : n.type === 'dotted_name' ? n.firstNamedChild : undefined;
    return bound ? [bound.text] : [];
  });
}
