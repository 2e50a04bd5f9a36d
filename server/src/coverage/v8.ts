// Coverage from Node's built-in V8 coverage: the test process runs with NODE_V8_COVERAGE=dir (child
// processes and workers inherit it), V8 writes one JSON per process at exit, and v8-to-istanbul
// (shipped with AMTP, nothing installed in the user's project) turns the ranges into an istanbul map.
// Files under test that no process loaded still count: they get one uncovered range over the whole
// file, as c8 --all does. A module a runner transformed and ran through node:vm (vitest) is read
// through the code the preload recorded (server/src/coverage/vmSources.ts), never as the file on disk.
// A built file whose map names sources the package does not ship counts as itself (./shippedMaps.ts).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import libCoverage from 'istanbul-lib-coverage';
import v8ToIstanbul from 'v8-to-istanbul';
import { mappedCountAt, type Generated } from './mappedCounts';
import { namesMissingSources, shippedMapOf } from './shippedMaps';
import { countAt, withSyntaxStatements, type V8Range } from './statements';
import { plainMap, type IstanbulFile, type IstanbulMap } from './units';
import { readVmSources, vmSourceOf, type VmSource } from './vmSources';

export interface V8Function {
  functionName: string;
  isBlockCoverage: boolean;
  ranges: V8Range[];
}
export interface V8Script {
  url: string;
  functions: V8Function[];
}
/** Node adds this when a loaded file carries a source map (vitest's transformed modules, tsx, ts-node). */
export type SourceMapCache = Record<string, { lineLengths?: number[]; data?: unknown }>;

/** The environment that makes a test process write V8 coverage into `dir`. */
export function v8Env(dir: string): Record<string, string> {
  return { NODE_V8_COVERAGE: dir };
}

/**
 * Reads every process's V8 coverage in `v8Dir` for the workspace-relative `files` under `root`;
 * `sourcesDir` holds the modules run through node:vm, as the preload recorded them.
 */
export async function v8ToMap(v8Dir: string, root: string, files: string[], sourcesDir?: string): Promise<IstanbulMap> {
  const { scripts, sourceMaps } = readScripts(v8Dir);
  return scriptsToMap(scripts, sourceMaps, root, files, readVmSources(sourcesDir));
}

/** How one V8 script is read: its file, and the source map or recorded vm code it is read through (none: the file on disk). */
export interface ScriptSource {
  path: string;
  mapped?: SourceMapCache[string] | VmSource;
}

/** The file a script is, and what to read it through; undefined when it cannot map to a file under test. */
export function scriptSource(
  script: V8Script,
  sourceMaps: SourceMapCache,
  vmSources: Map<string, string[]>,
  root: string,
  wanted: Set<string>,
): ScriptSource | undefined {
  const path = pathOf(script.url);
  // Only workspace files can map to files under test (a transformed module maps back through its source map).
  if (!path || !path.startsWith(resolve(root) + sep) || path.includes(`${sep}node_modules${sep}`)) return undefined;
  const ran = sourceMaps[script.url] ? undefined : vmSourceOf(vmSources, path, script.functions);
  const mapped = ran ? throughShippedMap(ran, path, wanted) : mapsToItself(sourceMaps[script.url], script.url, path, wanted);
  if (!wanted.has(path) && !mapped?.data) return undefined;
  return { path, ...(mapped ? { mapped } : {}) };
}

/** V8 scripts (one process's, or several merged) as an istanbul map of the `files` under test, untouched files included. */
export async function scriptsToMap(
  scripts: V8Script[],
  sourceMaps: SourceMapCache,
  root: string,
  files: string[],
  vmSources: Map<string, string[]>,
): Promise<IstanbulMap> {
  const wanted = new Set(files.map((f) => resolve(root, f)));
  const map = libCoverage.createCoverageMap({});
  for (const script of scripts) {
    const src = scriptSource(script, sourceMaps, vmSources, root, wanted);
    if (!src) continue;
    const data = await convert(src.path, script.functions, src.mapped);
    for (const [file, cov] of Object.entries(data)) if (wanted.has(file)) map.merge({ [file]: cov });
  }
  const seen = new Set(map.files());
  for (const path of wanted) {
    if (seen.has(path) || !existsSync(path)) continue;
    const length = readFileSync(path, 'utf8').length;
    // No function name: a named range would also become a function at 1:0 that no run ever covers
    // (a run that loads the file reports its functions at their own positions), and coverage rounds
    // would then send whatever function starts on line 1 as "uncovered" (verifier/rounds.ts, verifier/uncovered.ts).
    map.merge(
      await convert(path, [{ functionName: '', isBlockCoverage: true, ranges: [{ startOffset: 0, endOffset: length, count: 0 }] }]),
    );
  }
  return plainMap(map);
}

/**
 * A file under test that a runner transformed (vitest) with a map chained through the file's own map
 * to sources the package does not ship: counted as itself, through both maps (./mappedCounts.ts).
 */
function throughShippedMap(ran: VmSource, path: string, wanted: Set<string>): VmSource {
  if (!wanted.has(path) || !namesMissingSources(ran.data, pathToFileURL(path).href)) return ran;
  const shipped = shippedMapOf(path);
  return shipped ? { ...ran, shipped } : ran;
}

/**
 * The source map to read a script through: a module transformed in place (tsx, AMTP's loader,
 * vitest) maps back to its own file; a built file of the package that maps to another one
 * (dist/x.js → src/x.js, a shipped .map), or to sources the package does not ship, is measured as
 * itself, as nyc --all counts the files on disk.
 */
function mapsToItself(
  mapped: SourceMapCache[string] | undefined,
  url: string,
  path: string,
  wanted: Set<string>,
): SourceMapCache[string] | undefined {
  if (!mapped?.data || !wanted.has(path)) return mapped;
  if (namesMissingSources(mapped.data as object, url)) return undefined;
  const data = mapped.data as { sources?: unknown; sourceRoot?: unknown };
  const root = typeof data.sourceRoot === 'string' && data.sourceRoot ? `${data.sourceRoot.replace(/\/?$/, '/')}` : '';
  const sources = Array.isArray(data.sources) ? data.sources.filter((s): s is string => typeof s === 'string') : [];
  const own = sources.some((s) => {
    try {
      return pathOf(new URL(root + s, url).href) === path;
    } catch {
      return false;
    }
  });
  return own ? mapped : undefined;
}

export function readScripts(v8Dir: string): { scripts: V8Script[]; sourceMaps: SourceMapCache } {
  const scripts: V8Script[] = [];
  const sourceMaps: SourceMapCache = {};
  if (!existsSync(v8Dir)) return { scripts, sourceMaps };
  for (const name of readdirSync(v8Dir)) {
    if (!name.endsWith('.json')) continue;
    try {
      const data = JSON.parse(readFileSync(join(v8Dir, name), 'utf8')) as { result?: V8Script[]; 'source-map-cache'?: SourceMapCache };
      scripts.push(...(data.result ?? []));
      Object.assign(sourceMaps, data['source-map-cache'] ?? {});
    } catch {
      // A process killed while writing leaves a partial file: its coverage is lost, the rest counts.
    }
  }
  return { scripts, sourceMaps };
}

function pathOf(url: string): string | undefined {
  if (url.startsWith('file://')) {
    try {
      return fileURLToPath(url);
    } catch {
      return undefined;
    }
  }
  return url.startsWith('/') ? url : undefined;
}

function withoutSourceMapUrl(text: string): string {
  return text.replace(/(\/\/|\/\*)[#@]\s*sourceMappingURL=[^\n]*/g, (m) => ' '.repeat(m.length));
}

export async function convert(
  path: string,
  functions: V8Function[],
  mapped?: SourceMapCache[string] | VmSource,
): Promise<libCoverage.CoverageMapData> {
  // CommonJS modules are wrapped by Node without shifting offsets in current V8 reports: wrapper 0.
  // A transformed module is read through its source map, with a stand-in of the generated code's
  // line lengths (the generated code itself is not on disk), as c8 does.
  // A file read as itself has its `sourceMappingURL` blanked (same length), or v8-to-istanbul would
  // follow a shipped .map to another file on its own.
  // A module run through node:vm is read through its recorded code, after the runner's wrapper; one
  // whose map leads past it to sources not shipped is read as itself, its counts placed through both
  // maps (./mappedCounts.ts), and no function is taken from V8 (its offsets are the generated code's).
  const asItself = !!(mapped && 'code' in mapped && mapped.shipped);
  const sources = asItself
    ? { source: withoutSourceMapUrl(readFileSync(path, 'utf8')) }
    : mapped && 'code' in mapped
      ? { source: mapped.code, sourceMap: { sourcemap: mapped.data } }
      : mapped?.data
        ? {
            sourceMap: { sourcemap: mapped.data as object },
            ...(mapped.lineLengths ? { source: mapped.lineLengths.map((n) => ''.padEnd(n, '.')).join('\n') } : {}),
          }
        : { source: withoutSourceMapUrl(readFileSync(path, 'utf8')) };
  const wrapper = mapped && 'code' in mapped && !asItself ? mapped.wrapper : 0;
  const converter = v8ToIstanbul(pathToFileURL(path).href, wrapper, sources as Parameters<typeof v8ToIstanbul>[2]);
  try {
    await converter.load();
  } catch (e) {
    // A map whose sources are not shipped (a bundle's `../src/*.ts`, no sourcesContent): this script
    // counts for nothing, and its file stays as covered as the other scripts found it.
    if (mapped && (e as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw e;
  }
  converter.applyCoverage(asItself ? [] : functions);
  const data = converter.toIstanbul() as unknown as Record<string, IstanbulFile>;
  // Statements and branches as nyc counts them (./statements.ts, ./branches.ts): by the V8 count at
  // each one's offset, read through the source map where the code was transformed (./mappedCounts.ts).
  const ranges = functions.flatMap((f) => f.ranges);
  const generated = generatedOf(mapped);
  for (const [file, cov] of Object.entries(data)) {
    // A map can name sources the package does not ship (a bundle's `../src/*.ts`): nothing to count there.
    if (!existsSync(file)) {
      delete data[file];
      continue;
    }
    const count = !mapped?.data ? countAt(ranges) : generated ? mappedCountAt(file, generated, ranges) : undefined;
    data[file] = withSyntaxStatements(cov, file, count);
  }
  return data as unknown as libCoverage.CoverageMapData;
}

/** What V8 ran for a transformed module: its recorded code (node:vm) or the line lengths Node kept with its map. */
function generatedOf(mapped: SourceMapCache[string] | VmSource | undefined): Generated | undefined {
  if (mapped && 'code' in mapped)
    return {
      code: mapped.code,
      lineLengths: mapped.code.split('\n').map((l) => l.length),
      wrapper: mapped.wrapper,
      map: mapped.data,
      ...(mapped.shipped ? { shipped: mapped.shipped } : {}),
    };
  if (mapped?.data && mapped.lineLengths) return { lineLengths: mapped.lineLengths, wrapper: 0, map: mapped.data as object };
  return undefined;
}
