// Entry points resolved as Node resolves them: package.json `exports` (every condition, nested
// conditions, fallback arrays, subpath patterns `./*`), `main`, `module` and `bin`; `types` never
// names runtime code. A target missing from the tree (a `dist/` not built yet) falls back to the
// source file it is built from; a `dist/`-only package keeps its `dist/` files.
//
// Hand-written rather than resolve.exports: that library answers "which file does this one
// specifier load", while the crawler needs the inverse over the whole map (every subpath and
// condition, and which specifier reaches a given file), which is a walk of the JSON object.
import type { NpmPackage } from './manifests';

const join = (dir: string, p: string) => (dir ? `${dir}/${p}` : p).replace(/\/\.\//g, '/').replace(/^\.\//, '');

export interface ExportTarget {
  /** the subpath key: '.', './feature', './src/*' */
  subpath: string;
  /** the file or pattern, root-relative ('dist/index.cjs', 'src/*.js') */
  target: string;
  /** conditions on the way to it, outermost first (empty for a plain string) */
  conditions: string[];
}

/** Preference among conditions for the module a test loads: CommonJS-capable first, then ESM. */
const CONDITION_RANK = ['require', 'node', 'default', 'import', 'module'];

/** Every runtime target of an `exports` value; `types` branches and `null` (blocked) subpaths are left out. */
export function exportTargets(exp: unknown): ExportTarget[] {
  if (exp === undefined || exp === null) return [];
  const isSubpathMap = typeof exp === 'object' && !Array.isArray(exp) && Object.keys(exp).some((k) => k.startsWith('.'));
  if (!isSubpathMap) return leaves(exp, []).map((l) => ({ subpath: '.', ...l }));
  return Object.entries(exp as Record<string, unknown>)
    .filter(([k]) => k.startsWith('.') && !k.endsWith('/')) // `./dir/` folder mappings: removed from Node 17
    .flatMap(([subpath, v]) => leaves(v, []).map((l) => ({ subpath, ...l })));
}

function leaves(v: unknown, conditions: string[]): { target: string; conditions: string[] }[] {
  if (typeof v === 'string') return v.startsWith('./') ? [{ target: v.slice(2), conditions }] : [];
  if (Array.isArray(v)) return v.flatMap((x) => leaves(x, conditions));
  if (!v || typeof v !== 'object') return [];
  return Object.entries(v as Record<string, unknown>)
    .filter(([cond]) => cond !== 'types' && cond !== 'typings' && !cond.startsWith('.'))
    .flatMap(([cond, x]) => leaves(x, [...conditions, cond]));
}

/** A plain string first; an `import`/`module` anywhere on the way makes the file ESM-only, whatever else encloses it. */
function rankOf(t: ExportTarget): number {
  if (!t.conditions.length) return 0;
  for (const esm of ['import', 'module']) if (t.conditions.includes(esm)) return CONDITION_RANK.indexOf(esm) + 1;
  return Math.min(...t.conditions.map((c) => CONDITION_RANK.indexOf(c) + 1 || CONDITION_RANK.length + 1));
}

/** The target a test should load for each subpath: the best-ranked condition whose file exists. */
export function primaryTargets(targets: ExportTarget[], exists: (p: string) => boolean): ExportTarget[] {
  const bySub = new Map<string, ExportTarget[]>();
  for (const t of targets) bySub.set(t.subpath, [...(bySub.get(t.subpath) ?? []), t]);
  return [...bySub.values()].map(
    (list) => [...list].sort((a, b) => Number(!exists(a.target)) - Number(!exists(b.target)) || rankOf(a) - rankOf(b))[0],
  );
}

/** Expands a subpath pattern (`./src/*` → `src/*.js`) over the tree: [subpath, file] pairs. */
export function expandPattern(t: ExportTarget, dir: string, files: Iterable<string>): [string, string][] {
  const [pre, post] = join(dir, t.target).split('*', 2);
  const out: [string, string][] = [];
  if (post === undefined) return out;
  for (const f of files) {
    if (f.length <= pre.length + post.length || !f.startsWith(pre) || !f.endsWith(post)) continue;
    out.push([t.subpath.replace('*', f.slice(pre.length, f.length - post.length)), f]);
  }
  return out;
}

const SOURCE_EXTS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs', '.jsx'];

/**
 * Node's lookup for `main: "index"` or `"./lib"` (the file, with an extension, then its index);
 * when nothing of it is in the tree, the source it is built from (`dist/x.js` → `src/x.ts`).
 */
export function resolveEntry(p: string, files: Set<string>): string {
  const clean = p.replace(/^\.\//, '').replace(/\/$/, '');
  const source = sourceOf(clean, files);
  // The source a build is made from is what the project's own tests exercise; a build stands in only when it is all there is.
  if (source) return source;
  for (const ext of ['', '.js', '.cjs', '.mjs', '.json', '/index.js', '/index.cjs', '/index.mjs'])
    if (files.has(clean + ext)) return clean + ext;
  return clean;
}

function sourceOf(built: string, files: Set<string>): string | undefined {
  const m = /^(.*?)(?:dist|build|out|esm|cjs)\/(?:(?:esm|cjs|es|mjs|umd)\/)?(.*?)(?:\.[cm]?js)?$/.exec(built);
  if (!m) return undefined;
  for (const base of [`${m[1]}src/${m[2]}`, `${m[1]}src/${m[2]}/index`])
    for (const ext of SOURCE_EXTS) if (files.has(base + ext)) return base + ext;
  return undefined;
}

/**
 * How a user imports `path` of `pkg`: the package name plus the subpath that maps to it, or
 * undefined when the `exports` map does not expose the file (then only a relative path reaches it).
 */
export function packageSpecifier(path: string, pkg: NpmPackage, files: Set<string>): string | undefined {
  const name = typeof pkg.json.name === 'string' ? pkg.json.name : undefined;
  if (!name) return undefined;
  const withSub = (sub: string) => (sub === '.' ? name : `${name}${sub.slice(1)}`);
  const exp = pkg.json.exports;
  if (exp === undefined || exp === null) {
    const main = typeof pkg.json.main === 'string' ? resolveEntry(join(pkg.dir, pkg.json.main), files) : undefined;
    if (path === main) return name;
    const rel = pkg.dir ? path.slice(pkg.dir.length + 1) : path;
    return `${name}/${rel}`;
  }
  const targets = exportTargets(exp);
  for (const t of targets) if (!t.target.includes('*') && resolveEntry(join(pkg.dir, t.target), files) === path) return withSub(t.subpath);
  for (const t of targets) {
    if (!t.target.includes('*')) continue;
    const hit = expandPattern(t, pkg.dir, [path]);
    if (hit.length) return withSub(hit[0][0]);
  }
  return undefined;
}

type EntryList = { entry_points: { path: string; kind: string; package?: string; name?: string }[] };

/**
 * The files a crawl starts from: each package's preferred `exports` target per subpath, `main`,
 * `bin`, `module` only when nothing else names the runtime code, and Python packages' `__init__.py`.
 */
export function seedFiles(out: EntryList, pkgs: NpmPackage[], files: Set<string>): string[] {
  const seeds: string[] = [];
  for (const pkg of [...pkgs].sort((a, b) => a.dir.length - b.dir.length)) {
    const j = pkg.json;
    if (pkg.dir && !j.name) continue;
    const fixed = exportTargets(j.exports).filter((t) => !t.target.includes('*'));
    const resolved = fixed.map((t) => ({ ...t, target: resolveEntry(join(pkg.dir, t.target), files) }));
    for (const t of primaryTargets(resolved, (p) => files.has(p))) seeds.push(t.target);
    if (typeof j.main === 'string') seeds.push(resolveEntry(join(pkg.dir, j.main), files));
    if (typeof j.module === 'string' && !fixed.length && typeof j.main !== 'string')
      seeds.push(resolveEntry(join(pkg.dir, j.module), files));
    const bins = typeof j.bin === 'string' ? [j.bin] : j.bin && typeof j.bin === 'object' ? Object.values(j.bin) : [];
    for (const b of bins) if (typeof b === 'string') seeds.push(resolveEntry(join(pkg.dir, b), files));
  }
  // npmFacts adds `index.js` as main when a package names none; Python packages are seeds too.
  // A nested package.json without a name only marks a folder's module type (`es/package.json`): no seed.
  const named = (p: string) => !p.includes('/') || pkgs.some((k) => k.json.name && p.startsWith(`${k.dir}/`));
  for (const e of out.entry_points)
    if (e.kind === 'package' || (e.kind === 'main' && named(e.path) && !seeds.includes(e.path))) seeds.push(e.path);
  return [...new Set(seeds)].filter((p) => files.has(p));
}

/**
 * Folders that hold another build of the seeds' code (`es/` beside `src/`, `dist/` bundles): they are
 * never filled in after the reach, so a duplicate build does not take the budget.
 */
export function alternateBuildDirs(out: EntryList, pkgs: NpmPackage[], seeds: string[]): string[] {
  const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/') + 1) : '');
  const seedDirs = new Set(seeds.map(dirOf));
  const others = out.entry_points.filter((e) => e.kind === 'exports' || e.kind === 'module').map((e) => dirOf(e.path));
  for (const pkg of pkgs)
    for (const t of exportTargets(pkg.json.exports))
      if (t.target.includes('*')) others.push(dirOf(join(pkg.dir, t.target.slice(0, t.target.indexOf('*')))));
  // A seed at the package root ('' : voca's index.js beside es/) holds no other build inside it.
  const overlaps = (s: string, d: string) => s === d || (s !== '' && d.startsWith(s)) || s.startsWith(d);
  return [...new Set(others)].filter((d) => d && ![...seedDirs].some((s) => overlaps(s, d)));
}

/** Only the package's own entry is its namesake: a subpath export (`colord/plugins/a11y`) is named by its file. */
export function packageNamedEntries(out: EntryList): Set<string> {
  return new Set(out.entry_points.filter((e) => e.kind !== 'exports' || e.name === '.').map((e) => e.path));
}
