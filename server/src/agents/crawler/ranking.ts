import * as posix from 'node:path/posix';

const EXTS = [
  '',
  '.ts',
  '.tsx',
  '.js',
  '.mjs',
  '.cjs',
  '.jsx',
  '.mts',
  '.cts',
  '/index.ts',
  '/index.js',
  '/index.mjs',
  '.py',
  '/__init__.py',
];

/**
 * Counts how often each file is imported by the others (Aider's repo-map idea, without
 * tree-sitter): relative JS/TS specifiers and Python relative/absolute module imports.
 */
export function referenceCounts(imports: Map<string, string[]>, files: Set<string>): Map<string, number> {
  const refs = new Map<string, number>();
  for (const [from, specs] of imports) {
    const dir = posix.dirname(from);
    for (const spec of new Set(specs)) {
      const target = resolveSpecifier(dir, spec, files, from.endsWith('.py'));
      if (target && target !== from) refs.set(target, (refs.get(target) ?? 0) + 1);
    }
  }
  return refs;
}

/** The tree file an import of `spec` from the file `from` loads, if any. */
export const resolveImport = (from: string, spec: string, files: Set<string>): string | undefined =>
  resolveSpecifier(posix.dirname(from), spec, files, from.endsWith('.py'));

function resolveSpecifier(dir: string, spec: string, files: Set<string>, python: boolean): string | undefined {
  let base: string;
  if (python) {
    const dots = /^\.*/.exec(spec)![0].length;
    const mod = spec.slice(dots).replace(/\./g, '/');
    let d = dir;
    for (let i = 1; i < dots; i++) d = posix.dirname(d);
    base = dots ? posix.join(d, mod) : mod;
    for (const prefix of ['', 'src/'])
      for (const ext of ['.py', '/__init__.py']) if (files.has(prefix + base + ext)) return prefix + base + ext;
    return undefined;
  }
  if (!spec.startsWith('.')) return undefined;
  base = posix.normalize(posix.join(dir, spec));
  const noJs = base.replace(/\.(m|c)?js$/, ''); // TS sources import './x.js' that is really x.ts
  for (const b of [base, noJs]) for (const ext of EXTS) if (files.has(b + ext)) return b + ext;
  return undefined;
}
