// From the parsed files to the map's key files: ranked by tier (how close an entry point is), then by
// how often other files import them; each with its module system and the specifier a test imports.
import type { CrawlerOutput, KeyFile, ModuleSystem } from '../../contracts/types';
import type { TreeEntry } from '../../mcp/walk';
import type { FileFacts } from './analyseFiles';
import { packageSpecifier } from './entryPoints';
import { crossModuleHelpers } from './importBindings';
import type { JsFileFacts } from './jsSymbols';
import { moduleSystemOf, type NpmPackage } from './manifests';
import { referenceCounts } from './ranking';
import type { Reached } from './reach';

const MAX_KEY_FILES = 400;
const MAX_SYMBOLS = 100;
/** Tiers dominate: a helper imported everywhere still ranks below the public modules. */
const TIER_RANK = [3000, 2000, 1000, 0];

type Omitted = NonNullable<CrawlerOutput['omitted']>;
interface Ranked {
  path: string;
  f: FileFacts;
  rank: number;
}

/** The key files, best first; what the budgets left out goes to `omitted`. */
export function rankKeyFiles(
  reached: Reached,
  ctx: { code: Map<string, TreeEntry>; files: Set<string>; pkgs: NpmPackage[]; maxKeyFiles?: number },
  omitted: Omitted,
): KeyFile[] {
  const { facts, tier } = reached;
  const refs = referenceCounts(new Map([...facts].map(([p, f]) => [p, f.imports])), ctx.files);
  const exported = [...facts.entries()]
    .filter(([, f]) => f.symbols.some((s) => s.exported))
    .map(([p, f]): Ranked => ({ path: p, f, rank: TIER_RANK[tier.get(p) ?? 3] + Math.min(999, refs.get(p) ?? 0) }))
    .sort((a, b) => b.rank - a.rank || (a.path < b.path ? -1 : 1));
  // The budget grows with the public API: every entry and module it exposes, plus room for helpers.
  const publicApi = exported.filter((x) => (tier.get(x.path) ?? 3) <= 1).length;
  const keyBudget = ctx.maxKeyFiles ?? Math.min(MAX_KEY_FILES, Math.max(30, publicApi + 30));
  const ranked = exported.slice(0, keyBudget);
  if (exported.length > ranked.length)
    omitted.push({
      what: 'modules with exports, not key files',
      count: exported.length - ranked.length,
      reason: `key-file budget of ${keyBudget} (the entry points' public modules first, then helpers, then files no entry reaches)`,
    });
  noteCutSymbols(ranked, omitted);
  const symbolsOf = (p: string) => facts.get(p)?.symbols;
  return ranked.map(({ path: p, f, rank }): KeyFile => {
    // The declarations of the package's other modules its symbols call (importBindings.ts), beside its own.
    const helpers = [...(f.helpers ?? []), ...crossModuleHelpers(p, f.imported ?? [], symbolsOf, ctx.files)];
    return {
      path: p,
      language: ctx.code.get(p)?.language ?? 'unknown',
      rank,
      module_system: fileModuleSystem(p, f.syntax, ctx.pkgs),
      import_specifier: importSpecifier(p, ctx.pkgs, ctx.files),
      symbols: f.symbols.filter((s) => s.exported).slice(0, MAX_SYMBOLS),
      ...(helpers.length ? { helpers } : {}),
    };
  });
}

function noteCutSymbols(ranked: Ranked[], omitted: Omitted): void {
  const cut = ranked.filter((x) => x.f.symbols.filter((s) => s.exported).length > MAX_SYMBOLS);
  if (!cut.length) return;
  omitted.push({
    what: `exported symbols past the first ${MAX_SYMBOLS} of a file (${cut
      .map((x) => x.path)
      .slice(0, 5)
      .join(', ')})`,
    count: cut.reduce((n, x) => n + x.f.symbols.filter((s) => s.exported).length - MAX_SYMBOLS, 0),
    reason: 'per-file symbol limit',
  });
}

/** The package whose folder holds `path` most closely. */
function owningPackage(path: string, pkgs: NpmPackage[]): NpmPackage | undefined {
  return pkgs.filter((p) => p.dir === '' || path.startsWith(`${p.dir}/`)).sort((a, b) => b.dir.length - a.dir.length)[0];
}

/** The identifier a default export is called by: the package's name for an entry point, else the file's. */
export function defaultNameFor(path: string, pkgs: NpmPackage[], entries: Set<string>): string {
  const pkg = owningPackage(path, pkgs);
  const base =
    entries.has(path) && typeof pkg?.json.name === 'string'
      ? pkg.json.name.replace(/^@[^/]+\//, '')
      : path.replace(/^.*\//, '').replace(/\.[^.]+$/, '');
  return base.replace(/[^A-Za-z0-9_$]+(.)?/g, (_m: string, c?: string) => (c ? c.toUpperCase() : '')) || 'main';
}

function fileModuleSystem(path: string, syntax: JsFileFacts['syntax'] | undefined, pkgs: NpmPackage[]): ModuleSystem {
  if (path.endsWith('.py')) return 'python';
  if (/\.m[jt]s$/.test(path)) return 'esm';
  if (/\.c[jt]s$/.test(path)) return 'cjs';
  if (syntax === 'esm') return 'esm';
  if (syntax === 'cjs') return 'cjs';
  return moduleSystemOf(owningPackage(path, pkgs));
}

function importSpecifier(path: string, pkgs: NpmPackage[], files: Set<string>): string {
  if (path.endsWith('.py'))
    return path
      .replace(/^src\//, '')
      .replace(/(\/__init__)?\.py$/, '')
      .replace(/\//g, '.');
  const pkg = owningPackage(path, pkgs);
  const bare = pkg && packageSpecifier(path, pkg, files);
  return bare ?? `./${/\.[cm]?tsx?$/.test(path) ? path.replace(/\.[cm]?tsx?$/, '') : path}`;
}
