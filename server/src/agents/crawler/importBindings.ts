// The names a module binds from its package's other modules (`import { a as b } from './x'`,
// `import d from './x'`, `const { a } = require('./x')`, `const m = require('./x')`): a symbol that
// calls one of them gets that declaration's source beside its own (agents/sources.ts), found once
// every file is read (crossModuleHelpers). Only relative specifiers: a package's own modules.
import { posix } from 'node:path';
import type { HelperSpan, SymbolInfo } from '../../contracts/types';
import { isRequire, isString } from '../../util/esTree';
import type { EsNode } from '../../util/jsParser';

/** A local name and where it comes from: the specifier and the export it reads (`default`, or `*` for a whole module). */
export interface ImportedName {
  name: string;
  spec: string;
  export: string;
}

/** The relative imports of a file's top-level statements, by local name. */
export function importedNames(body: EsNode[]): Map<string, ImportedName> {
  const out = new Map<string, ImportedName>();
  for (const st of body) {
    if (st.type === 'ImportDeclaration' && isRelative(st.source?.value) && st.importKind !== 'type') {
      for (const sp of (st.specifiers ?? []) as EsNode[]) {
        if (sp.importKind === 'type') continue;
        const local = sp.local?.name as string | undefined;
        if (!local) continue;
        const exp =
          sp.type === 'ImportDefaultSpecifier'
            ? 'default'
            : sp.type === 'ImportNamespaceSpecifier'
              ? '*'
              : (sp.imported?.name ?? sp.imported?.value);
        out.set(local, { name: local, spec: st.source.value, export: exp });
      }
    } else if (st.type === 'VariableDeclaration') {
      for (const d of st.declarations as EsNode[]) {
        const req = d.init;
        if (!req || req.type !== 'CallExpression' || !isRequire(req) || !isString(req.arguments[0]) || !isRelative(req.arguments[0].value))
          continue;
        const spec = req.arguments[0].value as string;
        if (d.id.type === 'Identifier') out.set(d.id.name, { name: d.id.name, spec, export: '*' });
        else if (d.id.type === 'ObjectPattern')
          for (const p of d.id.properties as EsNode[])
            if (p.type === 'Property' && p.value?.type === 'Identifier' && (p.key?.name ?? p.key?.value))
              out.set(p.value.name, { name: p.value.name, spec, export: p.key.name ?? p.key.value });
      }
    }
  }
  return out;
}

function isRelative(spec: unknown): spec is string {
  return typeof spec === 'string' && (spec.startsWith('./') || spec.startsWith('../'));
}

const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];

/** The workspace file a relative specifier of `from` names: as written, with TypeScript's `.js` → `.ts`, an extension added, or its index. */
function resolveRelative(from: string, spec: string, files: Set<string>): string | undefined {
  const base = posix.normalize(posix.join(posix.dirname(from), spec.split(/[?#]/)[0]));
  const stem = base.replace(/\.[cm]?jsx?$/, '');
  const tries = [base, ...EXTENSIONS.map((e) => stem + e), ...EXTENSIONS.map((e) => `${base}/index${e}`)];
  return tries.find((t) => files.has(t));
}

/**
 * The declarations of other modules that each file's symbols call, as helper spans of that file
 * (`path` names the module holding it): a named export's or the default export's lines there.
 */
export function crossModuleHelpers(
  path: string,
  used: ImportedName[],
  symbolsOf: (path: string) => SymbolInfo[] | undefined,
  files: Set<string>,
): HelperSpan[] {
  const out: HelperSpan[] = [];
  for (const u of used) {
    if (u.export === '*') continue;
    const target = resolveRelative(path, u.spec, files);
    if (!target) continue;
    const sym = symbolsOf(target)?.find((s) => (u.export === 'default' ? s.export_style === 'default' : s.name === u.export));
    if (sym?.line && sym.end_line) out.push({ name: u.name, line: sym.line, end_line: sym.end_line, path: target });
  }
  return out;
}
