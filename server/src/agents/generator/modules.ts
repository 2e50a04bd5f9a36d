// How a test reaches each key file: the local name of the module value, how each export binds,
// and whether the file is a public entry point (which drives priority P0).
import type { CrawlerOutput, KeyFile, OracleBinding, SymbolInfo, TestCase } from '../../contracts/types';

export interface ModuleInfo {
  file: KeyFile;
  language: 'javascript' | 'typescript' | 'python';
  moduleSystem: 'cjs' | 'esm' | 'python';
  /** identifier the tests use for the module value itself */
  local: string;
  /** the symbol that *is* the module value (CJS `module.exports = fn`, ESM default export) */
  main?: SymbolInfo;
  entry: boolean;
  /** the package's own entry (`main`, `module`, exports `.`), not a subpath export such as `pkg/plugins/x` */
  mainEntry?: boolean;
  /** specifiers docs may import this module by */
  specifiers: string[];
  runtime: SymbolInfo[];
}

const TYPE_ONLY = new Set(['type', 'interface']);

export function describeModules(map: CrawlerOutput): ModuleInfo[] {
  const runnable = map.entry_points.filter((e) => e.kind !== 'types' && e.kind !== 'bin');
  const entries = new Set(runnable.map((e) => normalizePath(e.path)));
  const mainEntries = new Set(runnable.filter((e) => e.kind !== 'exports' || e.name === '.').map((e) => normalizePath(e.path)));
  return map.key_files
    .filter((f) => f.symbols.some((s) => s.exported))
    .map((file) => {
      const language = languageOf(file);
      const moduleSystem = language === 'python' ? 'python' : (file.module_system ?? map.project.module_system) === 'esm' ? 'esm' : 'cjs';
      const runtime = file.symbols.filter((s) => s.exported && !TYPE_ONLY.has(s.kind));
      const main = runtime.find((s) => s.export_style === 'module.exports' || s.export_style === 'default');
      const path = normalizePath(file.path);
      const entry = entries.has(path) || [...entries].some((e) => sameModule(e, path));
      const mainEntry = mainEntries.has(path) || [...mainEntries].some((e) => sameModule(e, path));
      // Only the package's own entry answers to the bare package name; a plugin at `pkg/plugins/x` does not.
      const specifiers = [file.import_specifier, mainEntry ? map.project.name : undefined, `./${path}`, path].filter(
        (s): s is string => !!s,
      );
      const base = (file.import_specifier ?? (entry ? map.project.name : path))
        .split('/')
        .pop()!
        .replace(/\.[^.]+$/, '');
      const mainName = main && main.name !== 'default' && isIdentifier(main.name) ? main.name : undefined;
      const named = camelIdentifier(base === 'index' || base === '__init__' ? map.project.name : base);
      // colord's entry exports a function `colord`: the module value needs another name, or a test
      // file would bind `colord` twice (module value for one case, the named export for another).
      const clash = moduleSystem !== 'python' && !mainName && runtime.some((s) => s.name === named);
      return {
        file,
        language,
        moduleSystem,
        local: mainName ?? (clash ? `${named}Module` : named),
        main,
        entry,
        mainEntry,
        specifiers,
        runtime,
      };
    });
}

/**
 * The name a file's module value goes by in docs: its file name (`pred` for pred.js), which can
 * differ from the name of the function it exports. Undefined for index files and Python.
 */
export function fileBaseName(mod: ModuleInfo): string | undefined {
  if (mod.moduleSystem === 'python') return undefined;
  const base = normalizePath(mod.file.path)
    .split('/')
    .pop()!
    .replace(/\.[^.]+$/, '');
  return base === 'index' ? undefined : camelIdentifier(base);
}

function languageOf(file: KeyFile): ModuleInfo['language'] {
  if (/\.py$/.test(file.path) || file.language === 'python') return 'python';
  return /\.[cm]?tsx?$/.test(file.path) ? 'typescript' : 'javascript';
}

/** The binding and expression that reach `symbol` from a test. */
export function bindingFor(mod: ModuleInfo, symbol: SymbolInfo): { binding: OracleBinding; access: string } {
  // A method (`Cache.get`, `Outer.Inner.m`) is reached through its class: the binding names the
  // class, since a binding's local must be an identifier (schemas/test-cases.schema.json).
  if (mod.moduleSystem === 'python') {
    const owner = symbol.name.split('.')[0];
    return { binding: { local: owner, import: 'named', name: owner }, access: symbol.name };
  }
  // A method of the module's own class (`TinyQueue.push` of `export default class TinyQueue`) is a
  // class member too, not a property of the module value.
  if (symbol.kind === 'method' && (!symbol.name.startsWith(`${mod.local}.`) || mod.main?.kind === 'class'))
    return jsMethodBinding(mod, symbol);
  if (symbol === mod.main) return { binding: { local: mod.local, import: mainImport(mod) }, access: mod.local };
  // Crawlers name properties of the module value `main.prop` (e.g. `slugify.extend`).
  const prop = symbol.name.startsWith(`${mod.local}.`) ? symbol.name.slice(mod.local.length + 1) : symbol.name;
  if (mod.moduleSystem === 'cjs' || symbol.name.includes('.'))
    return { binding: { local: mod.local, import: mainImport(mod) }, access: `${mod.local}.${prop}` };
  return { binding: { local: symbol.name, import: 'named', name: symbol.name }, access: symbol.name };
}

/**
 * A JS class method: static ones are properties of the class, instance ones of its prototype; the
 * crawler does not say which (server/src/agents/crawler/jsSymbols.ts), so the access tries both.
 */
function jsMethodBinding(mod: ModuleInfo, symbol: SymbolInfo): { binding: OracleBinding; access: string } {
  const [cls, ...rest] = symbol.name.split('.');
  const owner = mod.runtime.find((s) => s.name === cls);
  const reach =
    owner && owner !== symbol
      ? bindingFor(mod, owner)
      : { binding: { local: mod.local, import: mainImport(mod) }, access: `${mod.local}.${cls}` };
  const member = rest.join('.');
  return { binding: reach.binding, access: `(${reach.access}.${member} ?? ${reach.access}.prototype.${member})` };
}

export function mainImport(mod: ModuleInfo): OracleBinding['import'] {
  if (mod.moduleSystem === 'cjs' || mod.moduleSystem === 'python') return 'module';
  return mod.main ? 'default' : 'namespace';
}

export function targetOf(mod: ModuleInfo, symbol: SymbolInfo | undefined): TestCase['target'] {
  const target: TestCase['target'] = { file: normalizePath(mod.file.path), symbol: symbol?.name ?? mod.local };
  if (symbol) target.symbol_kind = symbol.kind;
  if (mod.file.import_specifier) target.import_specifier = mod.file.import_specifier;
  if (symbol?.export_style) target.export_style = symbol.export_style;
  if (symbol?.async !== undefined) target.async = symbol.async;
  const arity = symbol ? arityOf(symbol, mod.language) : undefined;
  if (arity !== undefined) target.arity = arity;
  return target;
}

/**
 * JS `fn.length` counts parameters before the first default or rest parameter; Python's
 * `len(inspect.signature(f).parameters)` counts all. Unknown when the crawler saw no params.
 */
export function arityOf(symbol: SymbolInfo, language: ModuleInfo['language']): number | undefined {
  if (symbol.kind !== 'function' || !symbol.params) return undefined;
  // A module-level function's `self` (cachetools.keys.methodkey(self, *args, **kwargs)) is a parameter
  // like any other; the crawler already dropped the receiver of methods.
  if (language === 'python') return symbol.params.length;
  let n = 0;
  for (const p of symbol.params) {
    if (p.default !== undefined || p.rest) break;
    n++;
  }
  return n;
}

export function normalizePath(p: string): string {
  return p.replace(/\\/g, '/').replace(/^\.\//, '');
}

function sameModule(a: string, b: string): boolean {
  const strip = (p: string) =>
    p
      .replace(/\.(?:c|m)?[jt]sx?$/, '')
      .replace(/\/index$/, '')
      .replace(/^(?:dist|lib|build)\//, 'src/');
  return strip(a) === strip(b);
}

function isIdentifier(s: string): boolean {
  return /^[A-Za-z_$][\w$]*$/.test(s) && !RESERVED.has(s);
}

const RESERVED = new Set([
  'default',
  'class',
  'function',
  'new',
  'delete',
  'import',
  'export',
  'return',
  'var',
  'let',
  'const',
  'this',
  'typeof',
  'void',
  'in',
  'of',
  'if',
  'else',
  'for',
  'while',
  'do',
  'switch',
  'case',
  'try',
  'catch',
  'finally',
  'throw',
  'with',
  'yield',
  'await',
  'enum',
  'super',
  'null',
  'true',
  'false',
]);

function camelIdentifier(name: string): string {
  const cleaned = name.replace(/^@[^/]+\//, '').replace(/[^A-Za-z0-9_$]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''));
  const id = /^[0-9]/.test(cleaned) ? `_${cleaned}` : cleaned || 'mod';
  return isIdentifier(id) ? id : `${id}Module`;
}
