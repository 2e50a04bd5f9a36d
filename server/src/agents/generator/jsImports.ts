// Import statements of a docs snippet, read from its syntax tree: which module they load and the
// local names they bind (`var x = require('s')`, `const {a, b: c} = require('s')`,
// `const f = require('s').f`, `import x, {a as b} from 's'`, `import * as n from 's'`).
import type * as TS from 'typescript';
import type { OracleBinding } from '../../contracts/types';
import { typescript } from '../../util/typescript';

export interface ParsedImport {
  own: boolean;
  specifier: string;
  bindings: OracleBinding[];
}

export function importOf(st: TS.Statement, ownSpecifiers: string[]): ParsedImport | undefined {
  const ts = typescript();
  if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)) {
    const specifier = st.moduleSpecifier.text;
    const bindings: OracleBinding[] = [];
    const clause = st.importClause;
    if (clause?.name) bindings.push({ local: clause.name.text, import: 'default' });
    const nb = clause?.namedBindings;
    if (nb && ts.isNamespaceImport(nb)) bindings.push({ local: nb.name.text, import: 'namespace' });
    else if (nb)
      for (const el of nb.elements) bindings.push({ local: el.name.text, import: 'named', name: (el.propertyName ?? el.name).getText() });
    return { own: isOwn(specifier, ownSpecifiers), specifier, bindings };
  }
  if (ts.isExpressionStatement(st)) {
    const specifier = requiredSpecifier(ts, st.expression);
    return specifier === undefined ? undefined : { own: isOwn(specifier, ownSpecifiers), specifier, bindings: [] };
  }
  if (!ts.isVariableStatement(st) || st.declarationList.declarations.length !== 1) return undefined;
  const decl = st.declarationList.declarations[0];
  if (!decl.initializer) return undefined;
  const init = decl.initializer;
  const prop = ts.isPropertyAccessExpression(init) ? init.name.text : undefined;
  const specifier = requiredSpecifier(ts, prop !== undefined ? (init as TS.PropertyAccessExpression).expression : init);
  if (specifier === undefined) return undefined;
  const bindings: OracleBinding[] = [];
  if (ts.isIdentifier(decl.name))
    bindings.push(
      prop !== undefined ? { local: decl.name.text, import: 'named', name: prop } : { local: decl.name.text, import: 'module' },
    );
  else if (ts.isObjectBindingPattern(decl.name)) {
    for (const el of decl.name.elements) {
      if (!ts.isIdentifier(el.name) || el.dotDotDotToken) continue;
      bindings.push({ local: el.name.text, import: 'named', name: el.propertyName?.getText() ?? el.name.text });
    }
  }
  return { own: isOwn(specifier, ownSpecifiers), specifier, bindings };
}

/** `require('s')` (also `await import('s')`) → `s`. */
function requiredSpecifier(ts: typeof TS, e: TS.Expression): string | undefined {
  const inner = ts.isAwaitExpression(e) ? e.expression : e;
  if (!ts.isCallExpression(inner) || inner.arguments.length !== 1 || !ts.isStringLiteralLike(inner.arguments[0])) return undefined;
  const callee = inner.expression;
  const isRequire = ts.isIdentifier(callee) && callee.text === 'require';
  return isRequire || callee.kind === ts.SyntaxKind.ImportKeyword ? inner.arguments[0].text : undefined;
}

function isOwn(specifier: string, own: string[]): boolean {
  const bare = (s: string) => s.replace(/\.(?:c|m)?[jt]s$/, '').replace(/\/index$/, '');
  return own.some((o) => o === specifier || bare(o) === bare(specifier));
}
