import type { CrawlerOutput, KeyFile, ModuleSystem } from '../../contracts/types';
import { formatContractErrors, validate } from '../../contracts/validate';
import { type ResponseCache, type CacheStats } from '../../mcp/cache';
import { connectInProcess } from '../../mcp/inProcess';
import { CODE_LANGUAGES } from '../../mcp/languages';
import { loadJsParser } from './jsParser';
import { analyseWave } from './analyseFiles';
import { alternateBuildDirs, packageSpecifier, seedFiles } from './entryPoints';
import { extractJsSymbols, type JsFileFacts } from './jsSymbols';
import { moduleSystemOf, npmFacts, pythonFacts, type NpmPackage, type PythonManifests } from './manifests';
import { warmPyPool } from './pyPool';
import { referenceCounts, resolveImport } from './ranking';
import { reachFrom } from './reach';
import { importBindings, readmeExamples, type ExportedName } from './readmeExamples';
import { isProductPath } from './targets';
import { detectTestRuns } from './testRuns';
import { detectTestSetup } from './testSetup';
import { WorkspaceReader, clientCaller } from './workspaceReader';
import type { CallTool } from '../../record/toolTap';

export interface CrawlOptions {
  /** share a cache across crawls (a second crawl of an unchanged tree then hits) */
  cache?: ResponseCache;
  treeLimit?: number;
  /** most source files parsed: the entry points' reach first (default 1000) */
  maxAnalyzedFiles?: number;
  /** most of them that no entry point reaches, parsed by depth for the reference ranking (default 300) */
  maxFillFiles?: number;
  maxKeyFiles?: number;
  sampleBudgetBytes?: number;
  gitignore?: 'auto' | 'always' | 'never';
  /** validate the map against crawler-output (default true) */
  validateOutput?: boolean;
  /** answer tool calls without a workspace (a replay); the MCP server is not started */
  tools?: CallTool;
  /** wrap the tool caller (a recording tap) */
  tap?: (inner: CallTool) => CallTool;
}

const MAX_KEY_FILES = 400;
const MAX_SYMBOLS = 100;
const MAX_SOURCE_BYTES = 512 * 1024;

/** The Repo Crawler's static analysis. It reads the workspace only through the MCP tools. */
export async function crawlWorkspace(workspace: string, opts: CrawlOptions = {}): Promise<{ map: CrawlerOutput; cache: CacheStats }> {
  const read = (tools: CallTool) =>
    analyse(new WorkspaceReader(opts.tap ? opts.tap(tools) : tools), workspace, opts).then((map) => checked(map, opts));
  // A replay answers the tools from a recording: no workspace, no server.
  if (opts.tools) return { map: await read(opts.tools), cache: { hits: 0, misses: 0, entries: 0, bytes: 0, evictions: 0 } };
  const ws = await connectInProcess(workspace, { cache: opts.cache, walk: { gitignore: opts.gitignore } });
  try {
    const before = ws.cache.stats();
    const map = await read(clientCaller(ws.client));
    const after = ws.cache.stats();
    return { map, cache: { ...after, hits: after.hits - before.hits, misses: after.misses - before.misses } };
  } finally {
    await ws.close();
  }
}

/** The map alone: what the orchestrator's crawl stage needs. */
export const crawlMap = async (workspace: string): Promise<CrawlerOutput> => (await crawlWorkspace(workspace)).map;

function checked(map: CrawlerOutput, opts: CrawlOptions): CrawlerOutput {
  const result = opts.validateOutput === false ? { ok: true as const } : validate('crawler-output', map);
  if (!result.ok) throw new Error(`crawler produced an invalid map: ${formatContractErrors(result.errors)}`);
  return map;
}

async function analyse(reader: WorkspaceReader, workspace: string, opts: CrawlOptions): Promise<CrawlerOutput> {
  const tree = await reader.tree({ limit: opts.treeLimit ?? 300_000 });
  const skipped = [...tree.skipped];
  const files = tree.entries.filter((e) => e.type === 'file');
  const fileSet = new Set(files.map((f) => f.path));
  const languageOfPath = new Map(files.map((f) => [f.path, f.language]));
  const readText = async (p: string): Promise<string | undefined> => {
    const r = await reader.read(p);
    if (r.ok) return r.file.content;
    skipped.push({ path: p, reason: r.reason });
    return undefined;
  };

  const langs = new Map<string, { files: number; bytes: number }>();
  for (const f of files)
    if (f.language) {
      const l = langs.get(f.language) ?? { files: 0, bytes: 0 };
      l.files++;
      l.bytes += f.size ?? 0;
      langs.set(f.language, l);
    }

  const pkgs: NpmPackage[] = [];
  // Cheap suffix tests before each regex: on a large tree these loops run over every file.
  for (const p of files
    .filter((f) => f.path.endsWith('package.json') && /(^|\/)package\.json$/.test(f.path) && f.path.split('/').length <= 4)
    .slice(0, 200)) {
    const text = await readText(p.path);
    if (text === undefined) continue;
    try {
      const json = JSON.parse(text);
      if (json && typeof json === 'object')
        pkgs.push({ dir: p.path.includes('/') ? p.path.slice(0, p.path.lastIndexOf('/')) : '', manifest: p.path, json });
    } catch {
      skipped.push({ path: p.path, reason: 'invalid JSON in package.json' });
    }
  }
  const rootPkg = pkgs.find((p) => p.dir === '');
  const maybe = async (p: string) => (fileSet.has(p) ? readText(p) : undefined);
  const py: PythonManifests = {
    pyproject: await maybe('pyproject.toml'),
    setupCfg: await maybe('setup.cfg'),
    setupPy: await maybe('setup.py'),
    requirements: [],
  };
  for (const r of files.filter((f) => f.path.startsWith('requirements') && /^requirements[\w.-]*\.txt$/.test(f.path)).slice(0, 5)) {
    const t = await readText(r.path);
    if (t !== undefined) py.requirements.push(t);
  }
  const out: CrawlerOutput = {
    schema_version: '1',
    project: { name: '', module_system: 'unknown', typescript: false },
    tree: { files: tree.files, dirs: tree.dirs, bytes: tree.bytes, truncated: tree.truncated },
    languages: [...langs.entries()].map(([name, v]) => ({ name, ...v })).sort((a, b) => b.bytes - a.bytes || a.name.localeCompare(b.name)),
    package_managers: [],
    frameworks: [],
    test_setup: { framework: 'none', test_dirs: [], config_files: [] },
    entry_points: [],
    key_files: [],
    usage_examples: [],
    skipped,
  };
  npmFacts(pkgs, fileSet, out);
  const pyFiles = langs.get('Python')?.files ?? 0;
  const isPython = !rootPkg && (pyFiles > 0 || py.pyproject !== undefined || py.setupPy !== undefined);
  const pyDeps = pythonFacts(py, fileSet, out);
  for (const f of files) {
    if (!f.path.endsWith('.py')) continue;
    if (/(^|\/)__main__\.py$/.test(f.path) && f.path.split('/').length <= 3) out.entry_points.push({ path: f.path, kind: '__main__' });
    if (/^(src\/)?[A-Za-z_]\w*\/__init__\.py$/.test(f.path) && isProductPath(f.path))
      out.entry_points.push({ path: f.path, kind: 'package', name: f.path.replace(/^src\//, '').split('/')[0] });
  }
  const packageManager = out.package_managers[0]?.name;
  out.test_setup = detectTestSetup({
    files: files.map((f) => f.path),
    rootPkg,
    packageManager,
    pyproject: py.pyproject,
    setupCfg: py.setupCfg,
    toxIni: await maybe('tox.ini'),
    pyDeps,
    isPython,
  });
  const runs = await detectTestRuns({ pkg: rootPkg?.json, files: fileSet, read: readText, pyproject: py.pyproject, isPython });
  if (runs) out.test_setup.runs = runs;

  const tomlName = /^\[(?:project|tool\.poetry)\][^[]*?^name\s*=\s*["']([^"']+)/m.exec(py.pyproject ?? '')?.[1];
  const dirName =
    workspace
      .replace(/[\\/]+$/, '')
      .split(/[\\/]/)
      .pop() || 'workspace';
  out.project.name = String(rootPkg?.json.name ?? tomlName ?? dirName);
  if (typeof rootPkg?.json.version === 'string') out.project.version = rootPkg.json.version;
  if (typeof rootPkg?.json.description === 'string') out.project.description = rootPkg.json.description.slice(0, 500);
  out.project.typescript = fileSet.has('tsconfig.json') || (langs.get('TypeScript')?.files ?? 0) > 0;
  out.project.module_system = rootPkg ? moduleSystemOf(rootPkg) : isPython ? 'python' : pkgs.length ? moduleSystemOf(pkgs[0]) : 'unknown';
  if (pkgs.length > 1 || out.package_managers.some((p) => p.workspaces)) {
    out.packages = pkgs.map((p) => ({
      name: String(p.json.name ?? (p.dir || out.project.name)),
      dir: p.dir || '.',
      module_system: moduleSystemOf(p),
    }));
  }

  // Entry points first, then what they import and re-export, then other product files (reach.ts).
  const entryFiles = new Set(out.entry_points.map((e) => e.path).filter((p) => fileSet.has(p)));
  // Only the package's own entry is its namesake: a subpath export (`colord/plugins/a11y`) is named by its file.
  const packageNamed = new Set(out.entry_points.filter((e) => e.kind !== 'exports' || e.name === '.').map((e) => e.path));
  const code = new Map(
    files
      .filter(
        (f) =>
          f.language &&
          CODE_LANGUAGES.has(f.language) &&
          !/\.d\.[cm]?ts$/.test(f.path) &&
          ((f.size ?? 0) <= MAX_SOURCE_BYTES || entryFiles.has(f.path)),
      )
      .map((f) => [f.path, f]),
  );
  const notProduct = [...code.keys()].filter((p) => !isProductPath(p));
  const seeds = seedFiles(out, pkgs, fileSet);
  const altBuilds = alternateBuildDirs(out, pkgs, seeds);
  // Other conditions' builds of the seeds (`import` beside `require`) are not filled in: same code twice.
  const seedSet = new Set(seeds);
  const otherConditions = new Set(
    out.entry_points.filter((e) => (e.kind === 'exports' || e.kind === 'module') && !seedSet.has(e.path)).map((e) => e.path),
  );
  const fill = [...code.values()]
    .filter((f) => isProductPath(f.path) && !otherConditions.has(f.path) && !altBuilds.some((d) => f.path.startsWith(d)))
    .sort((a, b) => a.path.split('/').length - b.path.split('/').length || (a.path < b.path ? -1 : 1));
  if ([...code.values()].some((f) => f.language === 'Python')) warmPyPool();
  const js = [...code.values()].some((f) => f.language !== 'Python') ? await loadJsParser() : undefined;
  const reached = await reachFrom({
    seeds,
    code,
    fill,
    budget: opts.maxAnalyzedFiles ?? 1000,
    fillBudget: opts.maxFillFiles ?? 300,
    analyse: (wave) => analyseWave(reader, js, wave, (p) => defaultNameFor(p, pkgs, packageNamed)),
    resolve: (from, spec) => resolveImport(from, spec, fileSet),
  });
  skipped.push(...reached.skipped);
  const { facts, texts } = reached;
  const imports = new Map([...facts].map(([p, f]) => [p, f.imports]));
  const omitted: NonNullable<CrawlerOutput['omitted']> = [];
  const notProductSeen = notProduct.filter((p) => !reached.tier.has(p)).length;
  if (notProductSeen)
    omitted.push({
      what: 'source files that are not product code (configs, scripts, tests, fixtures, benchmarks, type declarations, examples)',
      count: notProductSeen,
      reason: 'never test targets unless an entry point reaches them (server/src/agents/crawler/targets.ts)',
    });
  if (reached.unparsedReachable)
    omitted.push({
      what: 'files reachable from the entry points, not analysed',
      count: reached.unparsedReachable,
      reason: `parse budget of ${opts.maxAnalyzedFiles ?? 1000} files`,
    });
  if (reached.unparsedOther)
    omitted.push({
      what: 'product files not reached from an entry point, not analysed',
      count: reached.unparsedOther,
      reason: `parse budget (${opts.maxFillFiles ?? 300} files outside the entry points' reach, ${opts.maxAnalyzedFiles ?? 1000} in all)`,
    });
  // UMD builds (`module.exports = factory()`) hide their exports; their typings describe them.
  for (const e of out.entry_points.filter((x) => x.kind === 'types' && fileSet.has(x.path))) {
    const main = out.entry_points.find((x) => x.kind === 'main' && x.package === e.package);
    const mf = main && facts.get(main.path);
    if (!js || !mf || !(mf.opaqueCjs || mf.symbols.length === 0)) continue;
    const text = await readText(e.path);
    if (text === undefined) continue;
    const typed = extractJsSymbols(js, text, e.path, defaultNameFor(main.path, pkgs, packageNamed));
    mf.symbols = typed.symbols
      .filter((s) => s.kind !== 'interface' && s.kind !== 'type')
      .map((s) =>
        s.export_style === 'default' || s.export_style === 'module.exports' ? { ...s, export_style: 'module.exports' as const } : s,
      );
  }

  const refs = referenceCounts(imports, fileSet);
  // Tiers dominate: a helper imported everywhere still ranks below the public modules.
  const TIER_RANK = [3000, 2000, 1000, 0];
  const exported = [...facts.entries()]
    .filter(([, f]) => f.symbols.some((s) => s.exported))
    .map(([p, f]) => ({ path: p, f, rank: TIER_RANK[reached.tier.get(p) ?? 3] + Math.min(999, refs.get(p) ?? 0) }))
    .sort((a, b) => b.rank - a.rank || (a.path < b.path ? -1 : 1));
  // The budget grows with the public API: every entry and module it exposes, plus room for helpers.
  const publicApi = exported.filter((x) => (reached.tier.get(x.path) ?? 3) <= 1).length;
  const keyBudget = opts.maxKeyFiles ?? Math.min(MAX_KEY_FILES, Math.max(30, publicApi + 30));
  const ranked = exported.slice(0, keyBudget);
  if (exported.length > ranked.length)
    omitted.push({
      what: 'modules with exports, not key files',
      count: exported.length - ranked.length,
      reason: `key-file budget of ${keyBudget} (the entry points' public modules first, then helpers, then files no entry reaches)`,
    });
  const cutSymbols = ranked.filter((x) => x.f.symbols.filter((s) => s.exported).length > MAX_SYMBOLS);
  if (cutSymbols.length)
    omitted.push({
      what: `exported symbols past the first ${MAX_SYMBOLS} of a file (${cutSymbols
        .map((x) => x.path)
        .slice(0, 5)
        .join(', ')})`,
      count: cutSymbols.reduce((n, x) => n + x.f.symbols.filter((s) => s.exported).length - MAX_SYMBOLS, 0),
      reason: 'per-file symbol limit',
    });
  if (omitted.length) out.omitted = omitted;
  out.key_files = ranked.map(({ path: p, f, rank }): KeyFile => ({
    path: p,
    language: languageOfPath.get(p) ?? 'unknown',
    rank,
    module_system: fileModuleSystem(p, f.syntax, pkgs),
    import_specifier: importSpecifier(p, pkgs, fileSet),
    symbols: f.symbols.filter((s) => s.exported).slice(0, MAX_SYMBOLS),
  }));

  for (const readme of files
    .filter((f) => /readme/i.test(f.path) && /^(.*\/)?readme(\.md|\.markdown|\.rst|\.txt)?$/i.test(f.path) && f.path.split('/').length <= 3)
    .slice(0, 20)) {
    const text = await readText(readme.path);
    if (text === undefined) continue;
    const dir = readme.path.includes('/') ? readme.path.slice(0, readme.path.lastIndexOf('/')) : '';
    const pkgName = String(pkgs.find((p) => p.dir === dir)?.json.name ?? out.project.name);
    out.usage_examples.push(...readmeExamples(readme.path, text, exportedNames(out.key_files, importBindings(text, pkgName), pkgName)));
  }
  out.usage_examples = out.usage_examples.slice(0, 200);

  // Samples: ranked files until the byte budget runs out; the last may be cut.
  let budget = opts.sampleBudgetBytes ?? 48 * 1024;
  out.samples = [];
  for (const k of out.key_files) {
    const text = texts.get(k.path);
    if (!text || budget <= 0) continue;
    const cut = text.length > budget;
    out.samples.push({ path: k.path, content: cut ? text.slice(0, budget) : text, truncated: cut });
    budget -= Math.min(text.length, budget);
  }
  out.skipped = dedupe(skipped).slice(0, 1000);
  return out;
}

function defaultNameFor(path: string, pkgs: NpmPackage[], entries: Set<string>): string {
  const pkg = pkgs.filter((p) => p.dir === '' || path.startsWith(`${p.dir}/`)).sort((a, b) => b.dir.length - a.dir.length)[0];
  const base =
    entries.has(path) && typeof pkg?.json.name === 'string'
      ? pkg.json.name.replace(/^@[^/]+\//, '')
      : path.replace(/^.*\//, '').replace(/\.[^.]+$/, '');
  return base.replace(/[^A-Za-z0-9_$]+(.)?/g, (_m: string, c?: string) => (c ? c.toUpperCase() : '')) || 'main';
}

function owningPackage(path: string, pkgs: NpmPackage[]): NpmPackage | undefined {
  return pkgs.filter((p) => p.dir === '' || path.startsWith(`${p.dir}/`)).sort((a, b) => b.dir.length - a.dir.length)[0];
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

function exportedNames(keyFiles: KeyFile[], bindings: string[], pkgName: string): ExportedName[] {
  const pkgIdent = pkgName.replace(/^@[^/]+\//, '').replace(/[^A-Za-z0-9_$]+(.)?/g, (_m: string, c?: string) => (c ? c.toUpperCase() : ''));
  const receivers = [...new Set([...bindings, pkgIdent])];
  const out: ExportedName[] = [];
  for (const k of keyFiles)
    for (const s of k.symbols) {
      if (s.kind === 'method' && !s.name.includes('.')) continue;
      const calls = new Set<string>([s.name]);
      if (s.export_style === 'module.exports' || s.export_style === 'default') {
        receivers.forEach((r) => calls.add(r));
        // Docs call a file's module value by the file's name (`pred(…)` for pred.js), whatever its function is named.
        const base = /^([A-Za-z_$][\w$]*)\.[cm]?[jt]sx?$/.exec(k.path.replace(/^.*\//, ''))?.[1];
        if (base && base !== 'index') calls.add(base);
      }
      if (s.export_style === 'exports.property' || s.export_style === 'named' || s.export_style === 'python')
        receivers.forEach((r) => calls.add(`${r}.${s.name}`));
      if (s.kind === 'method') calls.delete(s.name.split('.').pop()!);
      out.push({ name: s.name, callNames: [...calls] });
    }
  return out;
}

function dedupe(list: { path: string; reason: string }[]): { path: string; reason: string }[] {
  const seen = new Set<string>();
  return list.filter((s) => (seen.has(s.path) ? false : (seen.add(s.path), true)));
}
