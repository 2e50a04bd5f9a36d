// A package that ships one module more than once (TypeScript source beside its build, a CommonJS and an
// ES-module build: src/x.ts, dist/x.js, esm/x.js, or dist/index.cjs.js beside dist/index.es.js) has
// ONE product module there, not three: coverage over "all product files" counts it once, as the copy
// the tests reached most (the first on a tie), so a test of the CommonJS build does not read as a third
// of the code. The bench's independent figure (bench/quality/product.mjs) uses this same rule.
//
// Copies are found by name: files under build folders (dist/, lib/, esm/, src/…, nested or not) whose
// path below those folders is the same once the extension and a format infix (`.cjs`, `.es`, `.esm`,
// `.umd`…) are taken off. A file at the package root is never a copy of another (index.js beside
// lib/index.js is usually the entry that requires it), except where package.json declares both as
// builds of one entry (`main` and `module`, an `exports` subpath's `import` and `require`).

import { readFileSync } from 'node:fs';
import { join, normalize } from 'node:path';

/** Folders that hold a build (or the source it is built from) of the package's modules. */
const BUILD_DIRS = new Set([
  'dist',
  'lib',
  'es',
  'es5',
  'es6',
  'es2015',
  'es2017',
  'esm',
  'cjs',
  'mjs',
  'commonjs',
  'module',
  'modules',
  'build',
  'out',
  'umd',
  'src',
  'source',
]);
const CODE = /\.(?:[cm]?[jt]sx?)$/;
const FORMAT_INFIX = /\.(?:cjs|mjs|esm?|umd|module|commonjs|common|browser|node|development|production)$/;

/** The module a JavaScript or TypeScript file under build folders holds, or undefined (not a copy candidate). */
function moduleOf(path: string): string | undefined {
  if (!CODE.test(path)) return undefined;
  const parts = path.split('/');
  let i = 0;
  while (i < parts.length - 1 && BUILD_DIRS.has(parts[i])) i++;
  if (i === 0) return undefined;
  return parts.slice(i).join('/').replace(CODE, '').replace(FORMAT_INFIX, '');
}

/**
 * The builds package.json declares of one entry: `main` with `module`, and the targets of each
 * `exports` subpath's conditions (`import`, `require`, `default`…), as package-relative paths.
 */
export function declaredBuilds(workspace: string): string[][] {
  let pkg: Record<string, unknown>;
  try {
    pkg = JSON.parse(readFileSync(join(workspace, 'package.json'), 'utf8')) as Record<string, unknown>;
  } catch {
    return [];
  }
  const rel = (p: unknown) => (typeof p === 'string' ? normalize(p).replace(/^\.\//, '') : undefined);
  const targets = (v: unknown): string[] =>
    typeof v === 'string' ? [v] : v && typeof v === 'object' ? Object.values(v as object).flatMap(targets) : [];
  const groups = [[pkg.main, pkg.module].map(rel).filter((p): p is string => !!p)];
  const exp = pkg.exports;
  if (exp && typeof exp === 'object' && !Array.isArray(exp)) {
    const subpaths = Object.keys(exp).every((k) => k.startsWith('.')) ? Object.values(exp) : [exp];
    for (const v of subpaths)
      groups.push(
        targets(v)
          .map(rel)
          .filter((p): p is string => !!p),
      );
  }
  return groups.map((g) => [...new Set(g)]).filter((g) => g.length > 1);
}

/**
 * Groups (two or more files each, in path order) of product files that hold the same module: by name
 * under build folders, and the builds package.json declares of one entry (`declared`, from
 * declaredBuilds).
 */
export function copyGroups(product: readonly string[], declared: readonly string[][] = []): string[][] {
  const parent = new Map<string, string>();
  const find = (f: string): string => {
    const p = parent.get(f) ?? f;
    return p === f ? f : find(p);
  };
  const join2 = (a: string, b: string) => {
    const [ra, rb] = [find(a), find(b)].sort();
    if (ra !== rb) parent.set(rb, ra);
  };
  const byModule = new Map<string, string>();
  for (const f of [...product].sort()) {
    const m = moduleOf(f);
    if (m === undefined) continue;
    const seen = byModule.get(m);
    if (seen) join2(seen, f);
    else byModule.set(m, f);
  }
  const inProduct = new Set(product);
  for (const g of declared) {
    const files = g.filter((f) => inProduct.has(f));
    for (const f of files.slice(1)) join2(files[0], f);
  }
  const linked = new Set([...parent.keys(), ...parent.values()]);
  const groups = new Map<string, string[]>();
  for (const f of [...product].sort()) if (linked.has(f)) groups.set(find(f), [...(groups.get(find(f)) ?? []), f]);
  return [...groups.values()].filter((g) => g.length > 1);
}

/**
 * The copies left out of the count: of each group, every file but the one with the most covered
 * statements (`covered(file)`), the first in path order on a tie.
 */
export function leftOutCopies(product: readonly string[], covered: (file: string) => number, declared: readonly string[][] = []): string[] {
  const out: string[] = [];
  for (const group of copyGroups(product, declared)) {
    const counts = group.map(covered);
    const best = counts.indexOf(Math.max(...counts));
    out.push(...group.filter((_, i) => i !== best));
  }
  return out.sort();
}
