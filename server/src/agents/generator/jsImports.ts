// Import statements of a docs snippet, read from its syntax tree (ESTree, oxc): which module they
// load and the local names they bind (`var x = require('s')`, `const {a, b: c} = require('s')`,
// `const f = require('s').f`, `import x, {a as b} from 's'`, `import * as n from 's'`).
import type { OracleBinding } from '../../contracts/types';
import { isRequire, nameOfKey, staticString, unexported } from '../../util/esTree';
import type { EsNode } from '../../util/jsParser';

export interface ParsedImport {
  own: boolean;
  specifier: string;
  bindings: OracleBinding[];
}

export function importOf(statement: EsNode, ownSpecifiers: string[]): ParsedImport | undefined {
  const st = unexported(statement);
  if (st.type === 'ImportDeclaration') {
    const specifier: string = st.source.value;
    const bindings: OracleBinding[] = [];
    for (const s of st.specifiers as EsNode[]) {
      if (s.type === 'ImportDefaultSpecifier') bindings.push({ local: s.local.name, import: 'default' });
      else if (s.type === 'ImportNamespaceSpecifier') bindings.push({ local: s.local.name, import: 'namespace' });
      else bindings.push({ local: s.local.name, import: 'named', name: nameOfKey(s.imported) ?? s.local.name });
    }
    return { own: isOwn(specifier, ownSpecifiers), specifier, bindings };
  }
  if (st.type === 'ExpressionStatement') {
    const specifier = requiredSpecifier(st.expression);
    return specifier === undefined ? undefined : { own: isOwn(specifier, ownSpecifiers), specifier, bindings: [] };
  }
  if (st.type !== 'VariableDeclaration' || st.declarations.length !== 1) return undefined;
  const decl: EsNode = st.declarations[0];
  const init: EsNode | null = decl.init;
  if (!init) return undefined;
  const prop = init.type === 'MemberExpression' && !init.computed ? nameOfKey(init.property) : undefined;
  const specifier = requiredSpecifier(prop !== undefined ? init.object : init);
  if (specifier === undefined) return undefined;
  const bindings: OracleBinding[] = [];
  if (decl.id.type === 'Identifier')
    bindings.push(prop !== undefined ? { local: decl.id.name, import: 'named', name: prop } : { local: decl.id.name, import: 'module' });
  else if (decl.id.type === 'ObjectPattern') {
    for (const p of decl.id.properties as EsNode[]) {
      // `{ a = 1 }` binds a; a rest element or a nested pattern binds no export by its name
      const local: EsNode | undefined = p.type === 'Property' ? (p.value.type === 'AssignmentPattern' ? p.value.left : p.value) : undefined;
      if (local?.type !== 'Identifier') continue;
      bindings.push({ local: local.name, import: 'named', name: (p.computed ? undefined : nameOfKey(p.key)) ?? local.name });
    }
  }
  return { own: isOwn(specifier, ownSpecifiers), specifier, bindings };
}

/** `require('s')` (also `await import('s')`) → `s`. */
function requiredSpecifier(e: EsNode): string | undefined {
  const inner = e.type === 'AwaitExpression' ? e.argument : e;
  if (inner.type === 'ImportExpression') return inner.options ? undefined : staticString(inner.source);
  return isRequire(inner) && inner.arguments.length === 1 ? staticString(inner.arguments[0]) : undefined;
}

function isOwn(specifier: string, own: string[]): boolean {
  const bare = (s: string) => s.replace(/\.(?:c|m)?[jt]s$/, '').replace(/\/index$/, '');
  return own.some((o) => o === specifier || bare(o) === bare(specifier));
}
