// Docs that call a package through a namespace they never bind: d3-array's README writes
// `d3.min([3, 2, 1]) // 1`, `d3` being the UMD global (or `import * as d3 from "d3-array"`).
// An identifier is such an alias when no snippet of the document binds it, it is not a JavaScript
// global (`Math.max`, `JSON.parse`), and most names called through it are exports of the package.
// Read with oxc, statement by statement (util/jsRecover.ts); snippets are data, never run.
import { nodesWhere, walk } from '../../util/esTree';
import type { EsNode } from '../../util/jsParser';
import { parseRecovering } from '../../util/jsRecover';

/**
 * @param snippets the code blocks of one document
 * @param exported bare names the package exports (`min`, `quantile`)
 * @param minMembers how many distinct exported names must be called through an alias (and more
 *   than half of the names called through it): 2 on a whole document; 1 where the crawler already
 *   linked each block to the exports it calls and only some blocks are at hand (a generator batch)
 */
export function namespaceAliases(snippets: string[], exported: Set<string>, minMembers = 2): Set<string> {
  const bound = new Set<string>();
  const members = new Map<string, Set<string>>();
  for (const code of snippets)
    for (const st of parseRecovering('snippet.ts', code).statements)
      for (const n of nodesWhere(st, (x) => x.type === 'CallExpression' || x.type === 'NewExpression' || declaredNames(x).length > 0)) {
        for (const name of declaredNames(n)) bound.add(name);
        const target: EsNode | undefined = n.callee;
        if (
          target?.type === 'MemberExpression' &&
          !target.computed &&
          target.object.type === 'Identifier' &&
          target.property.type === 'Identifier'
        ) {
          const alias: string = target.object.name;
          if (!members.has(alias)) members.set(alias, new Set());
          members.get(alias)!.add(target.property.name);
        }
      }
  const out = new Set<string>();
  for (const [alias, names] of members) {
    if (bound.has(alias) || alias in globalThis || exported.has(alias)) continue;
    const hits = [...names].filter((n) => exported.has(n)).length;
    if (hits >= minMembers && hits * 2 > names.size) out.add(alias);
  }
  return out;
}

/** The names a node declares as a variable, parameter, function, class or import (not inside destructuring). */
function declaredNames(n: EsNode): string[] {
  const id = (x: EsNode | null | undefined): string[] => (x?.type === 'Identifier' ? [x.name] : []);
  switch (n.type) {
    case 'VariableDeclarator':
      return id(n.id);
    case 'CatchClause':
      return id(n.param);
    case 'ClassDeclaration':
      return id(n.id);
    case 'ImportDefaultSpecifier':
    case 'ImportNamespaceSpecifier':
    case 'ImportSpecifier':
      return id(n.local);
  }
  const named = n.type === 'FunctionDeclaration' || n.type === 'TSDeclareFunction' ? id(n.id) : [];
  // parameters, of functions and of function types: `x`, `x = 1`, `...x`, `private x`
  if (!Array.isArray(n.params) || n.type.startsWith('TSTypeParameter')) return named;
  return named.concat(
    (n.params as EsNode[]).flatMap((p) => {
      const param = p.type === 'TSParameterProperty' ? p.parameter : p;
      return id(param.type === 'AssignmentPattern' ? param.left : param.type === 'RestElement' ? param.argument : param);
    }),
  );
}

/**
 * The snippet with `alias.` removed where an alias reaches an export (`d3.quantile(a, 0)` →
 * `quantile(a, 0)`), so the example reads as a call of the export itself. Comments are kept.
 */
export function withoutNamespaces(code: string, aliases: Set<string>): string {
  if (!aliases.size) return code;
  const cuts = new Map<number, number>();
  for (const st of parseRecovering('snippet.ts', code).statements)
    walk(st, (n) => {
      if (n.type === 'MemberExpression' && !n.computed && n.object.type === 'Identifier' && aliases.has(n.object.name))
        cuts.set(n.object.start, n.property.start);
    });
  let out = code;
  for (const [from, to] of [...cuts].sort((a, b) => b[0] - a[0])) out = out.slice(0, from) + out.slice(to);
  return out;
}
