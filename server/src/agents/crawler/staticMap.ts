import type { CrawlerOutput, KeyFile, ModuleSystem, SymbolInfo } from '../../contracts/types';
import { formatContractErrors, validate } from '../../contracts/validate';
import { ResponseCache, type CacheStats } from '../../mcp/cache';
import { connectInProcess } from '../../mcp/inProcess';
import { CODE_LANGUAGES } from '../../mcp/languages';
import { loadJsParser } from './jsParser';
import { extractJsSymbols, type JsFileFacts } from './jsSymbols';
import { join, moduleSystemOf, npmFacts, pythonFacts, type NpmPackage, type PythonManifests } from './manifests';
import { helpParsePython, parsePython, warmPyPool } from './pyPool';
import { referenceCounts } from './ranking';
import { importBindings, readmeExamples, type ExportedName } from './readmeExamples';
import { detectTestSetup } from './testSetup';
import { WorkspaceReader, clientCaller } from './workspaceReader';
import type { CallTool } from '../../record/toolTap';

export interface CrawlOptions {
  /** share a cache across crawls (a second crawl of an unchanged tree then hits) */
  cache?: ResponseCache;
  treeLimit?: number;
  /** most source files read for the reference ranking */
  maxAnalyzedFiles?: number;
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

const SKIP_SOURCE = /(^|\/)(tests?|__tests__|spec|e2e|fixtures?|examples?|docs?|vendor|third_party)\/|\.(test|spec)\.[cm]?[jt]sx?$|(^|\/)test_[^/]*\.py$|\.min\.js$/;
const MAX_SOURCE_BYTES = 512 * 1024;

/** The Repo Crawler's static analysis. It reads the workspace only through the MCP tools. */
export async function crawlWorkspace(workspace: string, opts: CrawlOptions = {}): Promise<{ map: CrawlerOutput; cache: CacheStats }> {
  const read = (tools: CallTool) => analyse(new WorkspaceReader(opts.tap ? opts.tap(tools) : tools), workspace, opts).then((map) => checked(map, opts));
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
  for (const f of files) if (f.language) {
    const l = langs.get(f.language) ?? { files: 0, bytes: 0 };
    l.files++;
    l.bytes += f.size ?? 0;
    langs.set(f.language, l);
  }

  const pkgs: NpmPackage[] = [];
  // Cheap suffix tests before each regex: on a large tree these loops run over every file.
  for (const p of files.filter((f) => f.path.endsWith('package.json') && /(^|\/)package\.json$/.test(f.path) && f.path.split('/').length <= 4).slice(0, 200)) {
    const text = await readText(p.path);
    if (text === undefined) continue;
    try {
      const json = JSON.parse(text);
      if (json && typeof json === 'object') pkgs.push({ dir: p.path.includes('/') ? p.path.slice(0, p.path.lastIndexOf('/')) : '', manifest: p.path, json });
    } catch {
      skipped.push({ path: p.path, reason: 'invalid JSON in package.json' });
    }
  }
  const rootPkg = pkgs.find((p) => p.dir === '');
  const maybe = async (p: string) => (fileSet.has(p) ? readText(p) : undefined);
  const py: PythonManifests = { pyproject: await maybe('pyproject.toml'), setupCfg: await maybe('setup.cfg'), setupPy: await maybe('setup.py'), requirements: [] };
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
    if (/^(src\/)?[A-Za-z_]\w*\/__init__\.py$/.test(f.path)) out.entry_points.push({ path: f.path, kind: 'package', name: f.path.replace(/^src\//, '').split('/')[0] });
  }
  const packageManager = out.package_managers[0]?.name;
  out.test_setup = detectTestSetup({ files: files.map((f) => f.path), rootPkg, packageManager, pyproject: py.pyproject, setupCfg: py.setupCfg, toxIni: await maybe('tox.ini'), pyDeps, isPython });

  const tomlName = /^\[(?:project|tool\.poetry)\][^[]*?^name\s*=\s*["']([^"']+)/m.exec(py.pyproject ?? '')?.[1];
  const dirName = workspace.replace(/[\\/]+$/, '').split(/[\\/]/).pop() || 'workspace';
  out.project.name = String(rootPkg?.json.name ?? tomlName ?? dirName);
  if (typeof rootPkg?.json.version === 'string') out.project.version = rootPkg.json.version;
  if (typeof rootPkg?.json.description === 'string') out.project.description = rootPkg.json.description.slice(0, 500);
  out.project.typescript = fileSet.has('tsconfig.json') || (langs.get('TypeScript')?.files ?? 0) > 0;
  out.project.module_system = rootPkg ? moduleSystemOf(rootPkg) : isPython ? 'python' : pkgs.length ? moduleSystemOf(pkgs[0]) : 'unknown';
  if (pkgs.length > 1 || out.package_managers.some((p) => p.workspaces)) {
    out.packages = pkgs.map((p) => ({ name: String(p.json.name ?? (p.dir || out.project.name)), dir: p.dir || '.', module_system: moduleSystemOf(p) }));
  }

  // Reference ranking over a bounded set of source files: entry points first, then the shallowest paths.
  const entryFiles = new Set(out.entry_points.map((e) => e.path).filter((p) => fileSet.has(p)));
  const candidates = files
    .filter((f) => f.language && CODE_LANGUAGES.has(f.language) && !f.path.endsWith('.d.ts') && (entryFiles.has(f.path) || !SKIP_SOURCE.test(f.path)))
    .filter((f) => (f.size ?? 0) <= MAX_SOURCE_BYTES || entryFiles.has(f.path))
    .sort((a, b) => Number(entryFiles.has(b.path)) - Number(entryFiles.has(a.path)) || a.path.split('/').length - b.path.split('/').length || (a.path < b.path ? -1 : 1))
    .slice(0, opts.maxAnalyzedFiles ?? 400);
  // Python files are parsed on a worker thread while this one reads the next files and parses the
  // JavaScript ones; each parser is loaded only when a file of its language is analysed.
  if (candidates.some((f) => f.language === 'Python')) warmPyPool();
  const js = candidates.some((f) => f.language !== 'Python') ? await loadJsParser() : undefined;
  const texts = new Map<string, string>();
  const facts = new Map<string, { symbols: SymbolInfo[]; syntax?: JsFileFacts['syntax']; opaqueCjs?: boolean }>();
  const imports = new Map<string, string[]>();
  type Facts = { symbols: SymbolInfo[]; imports: string[]; syntax?: JsFileFacts['syntax']; opaqueCjs?: boolean };
  // Settled at once (never a bare rejected promise): a failure waiting in this list must not be taken for an unhandled rejection.
  const settle = (p: Promise<Facts>) => p.then((facts) => ({ facts }), (e: Error) => ({ error: e.message }));
  const analysed: { path: string; skip?: string; result?: Promise<{ facts: Facts } | { error: string }> }[] = [];
  for (const f of candidates) {
    const r = await reader.read(f.path);
    if (!r.ok) {
      analysed.push({ path: f.path, skip: r.reason });
      continue;
    }
    const text = r.file.content;
    texts.set(f.path, text);
    if (f.language === 'Python') analysed.push({ path: f.path, result: settle(parsePython(text)) });
    else if (js) analysed.push({ path: f.path, result: settle(new Promise<Facts>((ok) => ok(extractJsSymbols(js, text, f.path, defaultNameFor(f.path, pkgs, entryFiles))))) });
  }
  // All read: this thread now parses queued Python files too, from the other end of the worker's queue.
  await helpParsePython();
  // Collected in candidate order, whatever order the threads finished in: the map is deterministic.
  for (const a of analysed) {
    if (a.skip !== undefined) {
      skipped.push({ path: a.path, reason: a.skip });
      continue;
    }
    const r = await a.result!;
    if ('error' in r) {
      skipped.push({ path: a.path, reason: `could not be analysed: ${r.error}` });
      continue;
    }
    const { imports: used, ...rest } = r.facts;
    facts.set(a.path, rest.syntax === undefined ? { symbols: rest.symbols } : rest);
    imports.set(a.path, used);
  }
  // UMD builds (`module.exports = factory()`) hide their exports; their typings describe them.
  for (const e of out.entry_points.filter((x) => x.kind === 'types' && fileSet.has(x.path))) {
    const main = out.entry_points.find((x) => x.kind === 'main' && x.package === e.package);
    const mf = main && facts.get(main.path);
    if (!js || !mf || !(mf.opaqueCjs || mf.symbols.length === 0)) continue;
    const text = await readText(e.path);
    if (text === undefined) continue;
    const typed = extractJsSymbols(js, text, e.path, defaultNameFor(main.path, pkgs, entryFiles));
    mf.symbols = typed.symbols.filter((s) => s.kind !== 'interface' && s.kind !== 'type').map((s) => (s.export_style === 'default' || s.export_style === 'module.exports' ? { ...s, export_style: 'module.exports' as const } : s));
  }

  const refs = referenceCounts(imports, fileSet);
  const ranked = [...facts.entries()]
    .map(([p, f]) => ({ path: p, f, rank: (entryFiles.has(p) ? 100 : 0) + (refs.get(p) ?? 0) + (f.symbols.some((s) => s.exported) ? 1 : 0) }))
    .filter((x) => x.f.symbols.some((s) => s.exported))
    .sort((a, b) => b.rank - a.rank || (a.path < b.path ? -1 : 1))
    .slice(0, opts.maxKeyFiles ?? 30);
  out.key_files = ranked.map(({ path: p, f, rank }): KeyFile => ({
    path: p,
    language: languageOfPath.get(p) ?? 'unknown',
    rank,
    module_system: fileModuleSystem(p, f.syntax, pkgs),
    import_specifier: importSpecifier(p, out, pkgs),
    symbols: f.symbols.filter((s) => s.exported).slice(0, 100),
  }));

  for (const readme of files.filter((f) => /readme/i.test(f.path) && /^(.*\/)?readme(\.md|\.markdown|\.rst|\.txt)?$/i.test(f.path) && f.path.split('/').length <= 3).slice(0, 20)) {
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
  const base = entries.has(path) && typeof pkg?.json.name === 'string' ? pkg.json.name.replace(/^@[^/]+\//, '') : path.replace(/^.*\//, '').replace(/\.[^.]+$/, '');
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

function importSpecifier(path: string, out: CrawlerOutput, pkgs: NpmPackage[]): string {
  const e = out.entry_points.find((x) => x.path === path && x.package && (x.kind === 'main' || x.kind === 'module' || x.kind === 'exports'));
  if (e) return e.kind === 'exports' && e.name && e.name !== '.' ? `${e.package}${e.name.slice(1)}` : e.package!;
  if (path.endsWith('.py')) return path.replace(/^src\//, '').replace(/(\/__init__)?\.py$/, '').replace(/\//g, '.');
  void pkgs;
  return `./${/\.[cm]?tsx?$/.test(path) ? path.replace(/\.[cm]?tsx?$/, '') : path}`;
}

function exportedNames(keyFiles: KeyFile[], bindings: string[], pkgName: string): ExportedName[] {
  const pkgIdent = pkgName.replace(/^@[^/]+\//, '').replace(/[^A-Za-z0-9_$]+(.)?/g, (_m: string, c?: string) => (c ? c.toUpperCase() : ''));
  const receivers = [...new Set([...bindings, pkgIdent])];
  const out: ExportedName[] = [];
  for (const k of keyFiles) for (const s of k.symbols) {
    if (s.kind === 'method' && !s.name.includes('.')) continue;
    const calls = new Set<string>([s.name]);
    if (s.export_style === 'module.exports' || s.export_style === 'default') receivers.forEach((r) => calls.add(r));
    if (s.export_style === 'exports.property' || s.export_style === 'named' || s.export_style === 'python') receivers.forEach((r) => calls.add(`${r}.${s.name}`));
    if (s.kind === 'method') calls.delete(s.name.split('.').pop()!);
    out.push({ name: s.name, callNames: [...calls] });
  }
  return out;
}

function dedupe(list: { path: string; reason: string }[]): { path: string; reason: string }[] {
  const seen = new Set<string>();
  return list.filter((s) => (seen.has(s.path) ? false : (seen.add(s.path), true)));
}
