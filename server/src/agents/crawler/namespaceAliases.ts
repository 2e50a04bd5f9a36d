// Docs that call a package through a namespace they never bind: d3-array's README writes
// `d3.min([3, 2, 1]) // 1`, `d3` being the UMD global (or `import * as d3 from "d3-array"`).
// An identifier is such an alias when no snippet of the document binds it, it is not a JavaScript
// global (`Math.max`, `JSON.parse`), and most names called through it are exports of the package.
// Read with the TypeScript parser; snippets are data, never run.
import type * as TS from 'typescript';
import { typescript } from '../../util/typescript';

/**
 * @param snippets the code blocks of one document
 * @param exported bare names the package exports (`min`, `quantile`)
 * @param minMembers how many distinct exported names must be called through an alias (and more
 *   than half of the names called through it): 2 on a whole document; 1 where the crawler already
 *   linked each block to the exports it calls and only some blocks are at hand (a generator batch)
 */
export function namespaceAliases(snippets: string[], exported: Set<string>, minMembers = 2): Set<string> {
  const ts = typescript();
  const bound = new Set<string>();
  const members = new Map<string, Set<string>>();
  for (const code of snippets) {
    const sf = ts.createSourceFile('snippet.ts', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const visit = (n: TS.Node): void => {
      const declared = declaredName(ts, n);
      if (declared) bound.add(declared);
      if ((ts.isCallExpression(n) || ts.isNewExpression(n)) && ts.isPropertyAccessExpression(n.expression)) {
        const target = n.expression;
        // A receiver with no text is the parser's stand-in for a missing one (`.min(x)` on a line of its own).
        if (ts.isIdentifier(target.expression) && target.expression.text && ts.isIdentifier(target.name)) {
          const alias = target.expression.text;
          if (!members.has(alias)) members.set(alias, new Set());
          members.get(alias)!.add(target.name.text);
        }
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  const out = new Set<string>();
  for (const [alias, names] of members) {
    if (bound.has(alias) || alias in globalThis || exported.has(alias)) continue;
    const hits = [...names].filter((n) => exported.has(n)).length;
    if (hits >= minMembers && hits * 2 > names.size) out.add(alias);
  }
  return out;
}

function declaredName(ts: typeof TS, n: TS.Node): string | undefined {
  if (
    (ts.isVariableDeclaration(n) ||
      ts.isParameter(n) ||
      ts.isFunctionDeclaration(n) ||
      ts.isClassDeclaration(n) ||
      ts.isImportClause(n) ||
      ts.isNamespaceImport(n) ||
      ts.isImportSpecifier(n)) &&
    n.name &&
    ts.isIdentifier(n.name)
  )
    return n.name.text;
  return undefined;
}

/**
 * The snippet with `alias.` removed where an alias reaches an export (`d3.quantile(a, 0)` →
 * `quantile(a, 0)`), so the example reads as a call of the export itself. Comments are kept.
 */
export function withoutNamespaces(code: string, aliases: Set<string>): string {
  if (!aliases.size) return code;
  const ts = typescript();
  const sf = ts.createSourceFile('snippet.ts', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const cuts: [number, number][] = [];
  const visit = (n: TS.Node): void => {
    if (ts.isPropertyAccessExpression(n) && ts.isIdentifier(n.expression) && aliases.has(n.expression.text))
      cuts.push([n.expression.getStart(sf), n.name.getStart(sf)]);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  let out = code;
  for (const [from, to] of cuts.sort((a, b) => b[0] - a[0])) out = out.slice(0, from) + out.slice(to);
  return out;
}
