// Merges a freshly rendered AMTP test file into the one already on disk, on the syntax tree: a
// test whose case id is already there replaces it, a new one goes after the file's last test, and
// everything else (earlier AMTP tests, a person's own tests and edits) stays as it is. The imports
// the new tests need are added when the file does not bind those names yet. A scoped run (one
// function from a CodeLens, --only, --changed-since) therefore never loses the rest of the file, and
// a run with --into-existing adds its tests to the person's own file without changing theirs.
import type * as TS from 'typescript';
import { jsSyntaxError } from '../frameworks/jsSnippet';
import { checkPython } from '../frameworks/pySyntax';
import { childrenOf, parsePython } from '../frameworks/pyTree';
import { typescript } from '../util/typescript';
import { findTests, isPython, replaceTest, type TestBlock } from './testFile';

/**
 * The merged file, or undefined when the two cannot be merged safely (then it is a whole-file overwrite).
 * With `append` (the person's own file, `--into-existing`), a file without AMTP tests yet gets the
 * new file's body, its tests and the helpers they use, after everything already in it; without it,
 * such a file is not merged into (an earlier run's file the person replaced is theirs to keep or not).
 */
export function mergeTestFile(path: string, existing: string, incoming: string, opts: { append?: boolean } = {}): string | undefined {
  const ours = findTests(path, existing);
  const theirs = findTests(path, incoming);
  if (!theirs.length || (!ours.length && !opts.append)) return undefined;
  try {
    let out = withImports(path, existing, incoming);
    if (out === undefined) return undefined;
    if (!ours.length) out = appended(path, out, incoming);
    else {
      const present = new Set(ours.map((b) => b.caseId));
      for (const b of theirs.filter((t) => present.has(t.caseId))) out = replaceTest(path, out, b.caseId, fromLineStart(incoming, b));
      const added = theirs.filter((t) => !present.has(t.caseId));
      if (added.length) {
        const last = findTests(path, out)
          .sort((a, b) => a.end - b.end)
          .pop()!;
        // The last test is replaced by itself followed by the new ones: one edit, re-indented together.
        const gap = isPython(path) ? '\n\n\n' : '\n\n';
        out = replaceTest(path, out, last.caseId, [fromLineStart(out, last), ...added.map((b) => fromLineStart(incoming, b))].join(gap));
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
}

/**
 * `existing` with the import statements of `incoming` whose names it does not bind yet, after its
 * last import. undefined when a statement binds some names that are there and some that are not
 * (adding it would declare a name twice).
 */
function withImports(path: string, existing: string, incoming: string): string | undefined {
  const read = isPython(path) ? pythonImports : (text: string) => jsImports(path, text);
  const have = read(existing);
  const bound = new Set(have.flatMap((s) => s.names));
  const missing: string[] = [];
  for (const s of read(incoming)) {
    const known = s.names.filter((n) => bound.has(n)).length;
    if (known === s.names.length) continue;
    if (known > 0) return undefined;
    missing.push(s.text);
  }
  if (!missing.length) return existing;
  const at = have.length ? have[have.length - 1].end : 0;
  const insert = have.length ? '\n' + missing.join('\n') : missing.join('\n') + '\n';
  return existing.slice(0, at) + insert + existing.slice(at);
}

/** Top-level `import …` and `const … = require(…)` statements with the names they bind. */
function jsImports(path: string, text: string): ImportStatement[] {
  const ts = typescript();
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, /\.[cm]?tsx?$/.test(path) ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  const out: ImportStatement[] = [];
  for (const st of sf.statements) {
    const names = ts.isImportDeclaration(st)
      ? importNames(ts, st)
      : ts.isVariableStatement(st) && requires(ts, st)
        ? st.declarationList.declarations.flatMap((d) => bindingNames(ts, d.name))
        : undefined;
    if (names) out.push({ text: text.slice(st.getStart(sf), st.end), names, end: st.end });
  }
  return out;
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

function requires(ts: typeof TS, st: TS.VariableStatement): boolean {
  const isRequire = (e: TS.Expression | undefined): boolean =>
    !!e &&
    ((ts.isCallExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === 'require') ||
      (ts.isPropertyAccessExpression(e) && isRequire(e.expression)));
  return st.declarationList.declarations.every((d) => isRequire(d.initializer));
}

function bindingNames(ts: typeof TS, name: TS.BindingName): string[] {
  if (ts.isIdentifier(name)) return [name.text];
  return name.elements.flatMap((e) => (ts.isOmittedExpression(e) ? [] : bindingNames(ts, e.name)));
}

/** Top-level `import a.b as c` / `from m import x as y, z` statements with the names they bind. */
function pythonImports(text: string): ImportStatement[] {
  const out: ImportStatement[] = [];
  for (const node of childrenOf(parsePython(text).topNode)) {
    if (node.name !== 'ImportStatement') continue;
    const tokens = childrenOf(node).map((c) => ({ kind: c.name, text: text.slice(c.from, c.to) }));
    const names: string[] = [];
    const from = tokens[0]?.kind === 'from';
    let i = from ? tokens.findIndex((t) => t.kind === 'import') + 1 : 1;
    while (i > 0 && i < tokens.length) {
      // One imported item: a dotted name (only after plain `import`), then `as NAME` perhaps.
      const first = tokens[i].text;
      while (tokens[i + 1]?.kind === '.') i += 2;
      if (tokens[i + 1]?.kind === 'as') {
        names.push(tokens[i + 2].text);
        i += 3;
      } else {
        names.push(first);
        i += 1;
      }
      if (tokens[i]?.kind === ',') i += 1;
    }
    // A comment at the end of the line (`# noqa: F401`) belongs to the statement: it moves with it.
    const own = text.slice(node.from, node.to).replace(/\s+$/, '');
    const comment = /^[ \t]*#[^\n]*/.exec(text.slice(node.from + own.length))?.[0] ?? '';
    out.push({ text: own + comment, names, end: node.from + own.length + comment.length });
  }
  return out;
}
