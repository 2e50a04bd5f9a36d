import type { CrawlerOutput, KeyFile } from '../../contracts/types';
import { formatContractErrors, validate } from '../../contracts/validate';
import { ResponseCache, type CacheStats } from '../../mcp/cache';
import { readingToolCaller } from '../../mcp/readingTools';
import { MAX_DEPTH, type TreeEntry } from '../../mcp/walk';
import type { TreeResult } from '../../mcp/treeTool';
import { loadJsParser, type JsParser } from '../../util/jsParser';
import { analyseWave } from './analyseFiles';
import { alternateBuildDirs, packageNamedEntries, seedFiles } from './entryPoints';
import { indexFiles, type FileIndex } from './fileIndex';
import { extractJsSymbols } from './jsSymbols';
import { unbuiltSource } from './buildNeeded';
import { defaultNameFor, rankKeyFiles } from './keyFiles';
import { moduleSystemOf, npmFacts, pyproject, pythonFacts, type NpmPackage, type PythonManifests } from './manifests';
import { warmPyPool } from './pyPool';
import { resolveImport } from './ranking';
import { reachFrom, reachWithAlternates, type Reached } from './reach';
import { importBindings, readmeExamples, type ExportedName } from './readmeExamples';
import { isProductPath } from './targets';
import { detectTestRuns } from './testRuns';
import { detectTestSetup } from './testSetup';
import { detectTypecheck } from './typecheck';
import { WorkspaceReader } from './workspaceReader';
import type { CallTool } from '../../core/toolCall';

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
  /** false: also take the slow paths skipped when they cannot change the map (aliasPrecheck.ts) */
  shortcuts?: boolean;
  /** answer tool calls without a workspace (a replay); the MCP server is not started */
  tools?: CallTool;
  /** wrap the tool caller (a recording tap) */
  tap?: (inner: CallTool) => CallTool;
  /** source files a first pass found need the build step, left out of the tree (buildNeeded.ts) */
  hiddenSources?: Map<string, string>;
}

const MAX_SOURCE_BYTES = 512 * 1024;
/**
 * Every key file's whole text, up to this much in all: the generator and the engineer are sent each
 * target's whole source (agents/sources.ts), which is cut from these texts by the symbols' lines.
 */
const SAMPLE_BUDGET_BYTES = 8 * 1024 * 1024;

/** The Repo Crawler's static analysis. It reads the workspace only through the MCP tools. */
export async function crawlWorkspace(workspace: string, opts: CrawlOptions = {}): Promise<{ map: CrawlerOutput; cache: CacheStats }> {
  const read = (tools: CallTool) =>
    analyse(new WorkspaceReader(opts.tap ? opts.tap(tools) : tools), workspace, opts).then((map) => checked(map, opts));
  // A replay answers the tools from a recording: no workspace, no server.
  if (opts.tools) return { map: await read(opts.tools), cache: { hits: 0, misses: 0, entries: 0, bytes: 0, evictions: 0 } };
  // The MCP server's own reading tools, called in this process (mcp/readingTools.ts). Unredacted: the crawler
  // parses the bytes; the map is redacted before any of it reaches a model (pipeline/batchStage.ts).
  // It reads the tree's structured entries: the text form is the count line alone (mcp/treeTool.ts).
  const cache = opts.cache ?? new ResponseCache();
  const tools = readingToolCaller(workspace, { cache, walk: { gitignore: opts.gitignore }, redact: false, treeText: 'summary' });
  const before = cache.stats();
  const map = await read(tools);
  const after = cache.stats();
  return { map, cache: { ...after, hits: after.hits - before.hits, misses: after.misses - before.misses } };
}

/** The map alone: what the orchestrator's crawl stage needs. */
export const crawlMap = async (workspace: string): Promise<CrawlerOutput> => (await crawlWorkspace(workspace)).map;

function checked(map: CrawlerOutput, opts: CrawlOptions): CrawlerOutput {
  const result = opts.validateOutput === false ? { ok: true as const } : validate('crawler-output', map);
  if (!result.ok) throw new Error(`crawler produced an invalid map: ${formatContractErrors(result.errors)}`);
  return map;
}

/** What the steps of one crawl share. */
interface Crawl {
  reader: WorkspaceReader;
  ix: FileIndex;
  /** files left out and why, in the order the steps met them */
  skipped: { path: string; reason: string }[];
  /** the file's text, or undefined with the reason in `skipped` */
  readText(p: string): Promise<string | undefined>;
  /** the file's text when the tree lists it */
  maybe(p: string): Promise<string | undefined>;
}

async function analyse(reader: WorkspaceReader, workspace: string, opts: CrawlOptions): Promise<CrawlerOutput> {
  const listed = await reader.tree({ limit: opts.treeLimit ?? 300_000 });
  const tree = opts.hiddenSources ? { ...listed, entries: listed.entries.filter((e) => !opts.hiddenSources!.has(e.path)) } : listed;
  const c = startCrawl(reader, tree);
  const pkgs = await readPackages(c);
  const py = await readPythonManifests(c);
  const out = emptyMap(tree, c);
  npmFacts(pkgs, c.ix.paths, out);
  const rootPkg = pkgs.find((p) => p.dir === '');
  const pyFiles = c.ix.languages.get('Python')?.files ?? 0;
  const isPython = !rootPkg && (pyFiles > 0 || py.pyproject !== undefined || py.setupPy !== undefined);
  const pyDeps = pythonFacts(py, c.ix.paths, out);
  out.entry_points.push(...c.ix.pyEntries);
  out.test_setup = detectTestSetup({
    files: c.ix.testEvidence,
    rootPkg,
    packageManager: out.package_managers[0]?.name,
    pyproject: py.pyproject,
    setupCfg: py.setupCfg,
    toxIni: await c.maybe('tox.ini'),
    pyDeps,
    isPython,
  });
  const runs = await detectTestRuns({ pkg: rootPkg?.json, files: c.ix.paths, read: c.readText, pyproject: py.pyproject, isPython });
  if (runs) out.test_setup.runs = runs;
  describeProject(out, workspace, pkgs, py, c.ix, isPython);
  if (out.project.typescript) {
    const pkg = (rootPkg?.json ?? {}) as Record<string, unknown>;
    const runner = runs?.runner ?? out.test_setup.framework;
    const typecheck = await detectTypecheck({
      runner,
      script: JSON.stringify(pkg.scripts ?? ''),
      pkg,
      files: c.ix.paths,
      read: c.readText,
    });
    if (typecheck) out.test_setup.typecheck = typecheck;
  }

  // Entry points first, then what they import and re-export, then other product files (reach.ts).
  const entryFiles = new Set(out.entry_points.map((e) => e.path).filter((p) => c.ix.paths.has(p)));
  const code = new Map(
    c.ix.code.filter((f) => (f.size ?? 0) <= MAX_SOURCE_BYTES || entryFiles.has(f.path)).map((f): [string, TreeEntry] => [f.path, f]),
  );
  const { reached, js } = await parseReachable(c, out, pkgs, code, opts);
  c.skipped.push(...reached.skipped);
  const omitted = [...treeOmissions(tree), ...parseOmissions(code, reached, opts)];
  await typedUmdExports(c, out, reached.facts, js, pkgs);
  // Source that needs the build step, beside a built output, is left out (buildNeeded.ts).
  const unbuilt = unbuiltSource(reached.facts, c.ix.paths, { entries: entryFiles, pkgs, hidden: opts.hiddenSources });
  if (unbuilt.rerun) return analyse(reader, workspace, { ...opts, hiddenSources: unbuilt.rerun });
  const built = { ...reached, facts: new Map([...reached.facts].filter(([p]) => !unbuilt.failing.has(p))) };
  out.key_files = rankKeyFiles(built, { code, files: c.ix.paths, pkgs, maxKeyFiles: opts.maxKeyFiles }, omitted);
  if (unbuilt.note) omitted.push(unbuilt.note);
  if (omitted.length) out.omitted = omitted;
  await usageExamples(c, out, pkgs, opts.shortcuts === false);
  out.samples = samplesOf(out.key_files, reached.texts, opts.sampleBudgetBytes ?? SAMPLE_BUDGET_BYTES);
  out.skipped = dedupe(c.skipped).slice(0, 1000);
  return out;
}

function startCrawl(reader: WorkspaceReader, tree: TreeResult): Crawl {
  const ix = indexFiles(tree.entries);
  const skipped = [...tree.skipped];
  const readText = async (p: string): Promise<string | undefined> => {
    const r = await reader.read(p);
    if (r.ok) return r.file.content;
    skipped.push({ path: p, reason: r.reason });
    return undefined;
  };
  return { reader, ix, skipped, readText, maybe: async (p) => (ix.paths.has(p) ? readText(p) : undefined) };
}

async function readPackages(c: Crawl): Promise<NpmPackage[]> {
  const pkgs: NpmPackage[] = [];
  for (const manifest of c.ix.manifests) {
    const text = await c.readText(manifest);
    if (text === undefined) continue;
    try {
      const json = JSON.parse(text);
      if (json && typeof json === 'object')
        pkgs.push({ dir: manifest.includes('/') ? manifest.slice(0, manifest.lastIndexOf('/')) : '', manifest, json });
    } catch {
      c.skipped.push({ path: manifest, reason: 'invalid JSON in package.json' });
    }
  }
  return pkgs;
}

async function readPythonManifests(c: Crawl): Promise<PythonManifests> {
  const py: PythonManifests = {
    pyproject: await c.maybe('pyproject.toml'),
    setupCfg: await c.maybe('setup.cfg'),
    setupPy: await c.maybe('setup.py'),
    requirements: [],
  };
  for (const r of c.ix.requirements) {
    const t = await c.readText(r);
    if (t !== undefined) py.requirements.push(t);
  }
  return py;
}

function emptyMap(tree: TreeResult, c: Crawl): CrawlerOutput {
  return {
    schema_version: '1',
    project: { name: '', module_system: 'unknown', typescript: false },
    tree: { files: tree.files, dirs: tree.dirs, bytes: tree.bytes, truncated: tree.truncated },
    languages: [...c.ix.languages.entries()]
      .map(([name, v]) => ({ name, ...v }))
      .sort((a, b) => b.bytes - a.bytes || a.name.localeCompare(b.name)),
    package_managers: [],
    frameworks: [],
    test_setup: { framework: 'none', test_dirs: [], config_files: [] },
    entry_points: [],
    key_files: [],
    usage_examples: [],
    skipped: c.skipped,
  };
}

function describeProject(
  out: CrawlerOutput,
  workspace: string,
  pkgs: NpmPackage[],
  py: PythonManifests,
  ix: FileIndex,
  isPython: boolean,
): void {
  const rootPkg = pkgs.find((p) => p.dir === '');
  const toml = pyproject(py.pyproject ?? '') as { project?: { name?: unknown }; tool?: { poetry?: { name?: unknown } } };
  const tomlName = [toml.project?.name, toml.tool?.poetry?.name].find((n): n is string => typeof n === 'string');
  const dirName =
    workspace
      .replace(/[\\/]+$/, '')
      .split(/[\\/]/)
      .pop() || 'workspace';
  out.project.name = String(rootPkg?.json.name ?? tomlName ?? dirName);
  if (typeof rootPkg?.json.version === 'string') out.project.version = rootPkg.json.version;
  if (typeof rootPkg?.json.description === 'string') out.project.description = rootPkg.json.description.slice(0, 500);
  out.project.typescript = ix.paths.has('tsconfig.json') || (ix.languages.get('TypeScript')?.files ?? 0) > 0;
  out.project.module_system = rootPkg ? moduleSystemOf(rootPkg) : isPython ? 'python' : pkgs.length ? moduleSystemOf(pkgs[0]) : 'unknown';
  if (pkgs.length > 1 || out.package_managers.some((p) => p.workspaces)) {
    out.packages = pkgs.map((p) => ({
      name: String(p.json.name ?? (p.dir || out.project.name)),
      dir: p.dir || '.',
      module_system: moduleSystemOf(p),
    }));
  }
}

async function parseReachable(
  c: Crawl,
  out: CrawlerOutput,
  pkgs: NpmPackage[],
  code: Map<string, TreeEntry>,
  opts: CrawlOptions,
): Promise<{ reached: Reached; js: JsParser | undefined }> {
  const packageNamed = packageNamedEntries(out);
  const seeds = seedFiles(out, pkgs, c.ix.paths);
  const altBuilds = alternateBuildDirs(out, pkgs, seeds);
  // Other conditions' builds of the seeds (`import` beside `require`) are not filled in: same code twice.
  const seedSet = new Set(seeds);
  const otherConditions = new Set(
    out.entry_points.filter((e) => (e.kind === 'exports' || e.kind === 'module') && !seedSet.has(e.path)).map((e) => e.path),
  );
  const fill = [...code.values()]
    .filter((f) => isProductPath(f.path) && !otherConditions.has(f.path) && !altBuilds.some((d) => f.path.startsWith(d)))
    .sort((a, b) => a.path.split('/').length - b.path.split('/').length || (a.path < b.path ? -1 : 1));
  // The Python thread starts only when a file it would parse is planned (it also starts on the first
  // parse): a tree whose Python is all scripts and tools does not pay for loading the parser.
  if (fill.some((f) => f.language === 'Python') || seeds.some((p) => code.get(p)?.language === 'Python')) warmPyPool();
  const js = [...code.values()].some((f) => f.language !== 'Python') ? await loadJsParser() : undefined;
  const reach = (from: string[]) =>
    reachFrom({
      seeds: from,
      code,
      fill,
      budget: opts.maxAnalyzedFiles ?? 1000,
      fillBudget: opts.maxFillFiles ?? 300,
      analyse: (wave) => analyseWave(c.reader, js, wave, (p) => defaultNameFor(p, pkgs, packageNamed)),
      resolve: (from, spec) => resolveImport(from, spec, c.ix.paths),
    });
  const reached = await reachWithAlternates(
    reach,
    seeds,
    [...otherConditions].filter((p) => code.has(p)),
  );
  return { reached, js };
}

/** What the walk itself cut: folders past its depth limit (each is named in the map's skipped list too). */
function treeOmissions(tree: TreeResult): NonNullable<CrawlerOutput['omitted']> {
  if (!tree.depthCut) return [];
  return [
    {
      what: `folders deeper than ${MAX_DEPTH} levels, not listed`,
      count: tree.depthCut,
      reason: `the tree walk stops at ${MAX_DEPTH} levels (server/src/mcp/walk.ts)`,
    },
  ];
}

function parseOmissions(code: Map<string, TreeEntry>, reached: Reached, opts: CrawlOptions): NonNullable<CrawlerOutput['omitted']> {
  const omitted: NonNullable<CrawlerOutput['omitted']> = [];
  let notProductSeen = 0;
  for (const p of code.keys()) if (!isProductPath(p) && !reached.tier.has(p)) notProductSeen++;
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
  return omitted;
}

/** UMD builds (`module.exports = factory()`) hide their exports; their typings describe them. */
async function typedUmdExports(
  c: Crawl,
  out: CrawlerOutput,
  facts: Reached['facts'],
  js: JsParser | undefined,
  pkgs: NpmPackage[],
): Promise<void> {
  const packageNamed = packageNamedEntries(out);
  for (const e of out.entry_points.filter((x) => x.kind === 'types' && c.ix.paths.has(x.path))) {
    const main = out.entry_points.find((x) => x.kind === 'main' && x.package === e.package);
    const mf = main && facts.get(main.path);
    if (!js || !mf || !(mf.opaqueCjs || mf.symbols.length === 0)) continue;
    const text = await c.readText(e.path);
    if (text === undefined) continue;
    const typed = extractJsSymbols(js, text, e.path, defaultNameFor(main.path, pkgs, packageNamed));
    mf.symbols = typed.symbols
      .filter((s) => s.kind !== 'interface' && s.kind !== 'type')
      .map((s) =>
        s.export_style === 'default' || s.export_style === 'module.exports' ? { ...s, export_style: 'module.exports' as const } : s,
      );
  }
}

async function usageExamples(c: Crawl, out: CrawlerOutput, pkgs: NpmPackage[], alwaysParse: boolean): Promise<void> {
  for (const readme of c.ix.readmes) {
    const text = await c.readText(readme);
    if (text === undefined) continue;
    const dir = readme.includes('/') ? readme.slice(0, readme.lastIndexOf('/')) : '';
    const pkgName = String(pkgs.find((p) => p.dir === dir)?.json.name ?? out.project.name);
    const names = exportedNames(out.key_files, importBindings(text, pkgName), pkgName);
    out.usage_examples.push(...readmeExamples(readme, text, names, { alwaysParse }));
  }
  out.usage_examples = out.usage_examples.slice(0, 200);
}

/** Samples: ranked files until the byte budget runs out; the last may be cut. */
function samplesOf(keyFiles: CrawlerOutput['key_files'], texts: Map<string, string>, budgetBytes: number): CrawlerOutput['samples'] {
  let budget = budgetBytes;
  const samples: NonNullable<CrawlerOutput['samples']> = [];
  for (const k of keyFiles) {
    const text = texts.get(k.path);
    if (!text || budget <= 0) continue;
    const cut = text.length > budget;
    samples.push({ path: k.path, content: cut ? text.slice(0, budget) : text, truncated: cut });
    budget -= Math.min(text.length, budget);
  }
  return samples;
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
