// Which module, symbol and bindings a documented example exercises, from the names it uses.
import type { OracleBinding, SymbolInfo } from '../../contracts/types';
import type { DocExample } from './examples';
import { bindingFor, fileBaseName, mainImport, type ModuleInfo } from './modules';

export interface ResolvedExample {
  mod: ModuleInfo;
  symbol: SymbolInfo | undefined;
  bindings: OracleBinding[];
}

interface NameUse {
  name: string;
  prop?: string;
}

/** Identifiers in code (not inside strings, not property accesses, not object keys), with a following `.prop`. */
function namesUsed(code: string): NameUse[] {
  const bare = code.replace(/'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`/g, '""');
  const uses: NameUse[] = [];
  const re = /(?<![.\w$])([A-Za-z_$][\w$]*)(?:\s*\.\s*([A-Za-z_$][\w$]*))?(?!\s*:(?!:))/g;
  for (let m = re.exec(bare); m; m = re.exec(bare)) uses.push({ name: m[1], prop: m[2] });
  return uses;
}

/** Tries the entry-point modules first: README snippets describe the public API. */
export function resolveExample(example: DocExample, mods: ModuleInfo[], preferred?: ModuleInfo): ResolvedExample | undefined {
  // The package's own entry first, then a module named like the called function (`succ(…)` → succ.js,
  // even when another file's function is also called succ), then the other entries, by rank.
  const called = namesUsed(example.call)[0]?.name;
  const namedLike = (m: ModuleInfo) => Number(!!called && fileBaseName(m) === called);
  const ordered = preferred
    ? [preferred, ...mods.filter((m) => m !== preferred)]
    : [...mods].sort(
        (a, b) =>
          Number(!!b.mainEntry) - Number(!!a.mainEntry) ||
          namedLike(b) - namedLike(a) ||
          Number(b.entry) - Number(a.entry) ||
          b.file.rank - a.file.rank,
      );
  for (const mod of ordered) {
    const r = resolveIn(example, mod);
    if (r) return r;
  }
  return undefined;
}

function resolveIn(example: DocExample, mod: ModuleInfo): ResolvedExample | undefined {
  const declared = new Set(example.setup.flatMap(declaredNames));
  const bindings = new Map<string, OracleBinding>();
  for (const b of example.imports) if (bindsIn(b, example.importedFrom?.[b.local], mod)) bindings.set(b.local, cjsDefault(b, mod));
  const callUses = namesUsed(example.call);
  // Python setup keeps its own import lines; the names in them are not uses of the module value.
  const setupCode = example.setup.filter((l) => !(mod.language === 'python' && /^\s*(?:from|import)\s/.test(l)));
  const allUses = [...setupCode.flatMap(namesUsed), ...callUses];
  for (const use of allUses) {
    if (bindings.has(use.name) || declared.has(use.name)) continue;
    const b = bindingForName(use.name, mod, use.prop);
    if (b) bindings.set(use.name, b);
  }
  const used = new Set(allUses.map((u) => u.name));
  const relevant = [...bindings.values()].filter((b) => used.has(b.local));
  // The target is the first module name the call itself uses (e.g. `bytes.format(…)` → format).
  for (const use of callUses) {
    const b = bindings.get(use.name);
    if (!b) {
      // Python snippets import inside the example (`>>> from pkg import add`); the setup keeps that line.
      const imported = mod.language === 'python' && declared.has(use.name) ? mod.runtime.find((s) => s.name === use.name) : undefined;
      if (imported && example.setup.some((s) => /^(?:from|import)\s/.test(s))) return { mod, symbol: imported, bindings: relevant };
      continue;
    }
    const symbol = symbolFor(b, use.prop, mod);
    // A named import the module does not define belongs to another module (re-exported by an index).
    if (b.import === 'named' && !symbol) return undefined;
    // `semver.valid(semver.coerce(x))` where this module exports `coerce` but not `valid` (a batch or
    // a scope that holds part of the entry): the call exercises the export it does have.
    if (!symbol && use.prop) continue;
    return { mod, symbol, bindings: relevant };
  }
  return throughSetup(example, mod, setupCode, bindings, declared, callUses[0]?.prop, relevant);
}

/**
 * A call on a value the setup derived (`isMatch = pm('*.js')` then `isMatch('a.js')`, `c = Cache()`
 * then `c.get('a')`) exercises the export the setup used last; for an instance, its method.
 */
function throughSetup(
  example: DocExample,
  mod: ModuleInfo,
  setupCode: string[],
  bindings: Map<string, OracleBinding>,
  declared: Set<string>,
  prop: string | undefined,
  relevant: OracleBinding[],
): ResolvedExample | undefined {
  const pyImports = example.setup.some((s) => /^(?:from|import)\s/.test(s));
  for (const stmt of [...setupCode].reverse()) {
    for (const use of namesUsed(stmt)) {
      const b = bindings.get(use.name);
      const imported =
        !b && mod.language === 'python' && pyImports && declared.has(use.name) ? mod.runtime.find((s) => s.name === use.name) : undefined;
      const symbol = b ? symbolFor(b, use.prop, mod) : imported;
      if (!symbol) continue;
      const method = symbol.kind === 'class' && prop ? mod.runtime.find((s) => s.name === `${symbol.name}.${prop}`) : undefined;
      return { mod, symbol: method ?? symbol, bindings: relevant };
    }
  }
  return undefined;
}

/**
 * The package's module value (`const semver = require('semver')`) is its entry's, never another
 * file's: a module-value import binds in an entry, or in the module its specifier names
 * (`require('semver/functions/coerce')`). A named import binds wherever that export is defined.
 */
function bindsIn(b: OracleBinding, specifier: string | undefined, mod: ModuleInfo): boolean {
  if (b.import === 'named' || specifier === undefined || mod.entry) return true;
  const bare = (s: string) =>
    s
      .replace(/^(?:\.\.?\/)+/, '')
      .replace(/\.(?:c|m)?[jt]sx?$/, '')
      .replace(/\/index$/, '');
  return mod.specifiers.some((s) => bare(s) === bare(specifier));
}

/**
 * `import delve from 'dlv'` of a CommonJS module that sets `module.exports = function …` is the
 * module value itself (Node's interop), not a `.default` property, unless the module defines one.
 */
function cjsDefault(b: OracleBinding, mod: ModuleInfo): OracleBinding {
  if (b.import !== 'default' || mod.moduleSystem !== 'cjs') return b;
  if (mod.runtime.some((s) => s.name === 'default' || s.export_style === 'default')) return b;
  return { ...b, import: 'module' };
}

function bindingForName(name: string, mod: ModuleInfo, prop?: string): OracleBinding | undefined {
  // python3-parse: `parse(…)` in parse.py is the function `parse`, not the module of the same name
  const own = mod.moduleSystem === 'python' && !prop ? mod.runtime.find((s) => s.name === name) : undefined;
  if (own) return bindingFor(mod, own).binding;
  if (name === mod.local) return { local: name, import: mainImport(mod) };
  // A file's module value by its file name (`pred(…)` for pred.js whose function is named otherwise).
  if (mod.main && !mod.entry && name === fileBaseName(mod)) return { local: name, import: mainImport(mod) };
  // Docs name the package by their own alias (`R.add(2, 3)` in ramda's @example): an unknown name
  // whose property an entry point exports is that entry's module value.
  if (prop && mod.entry && !mod.runtime.some((s) => s.name === name) && mod.runtime.some((s) => s.name === prop && s !== mod.main))
    return { local: name, import: mainImport(mod) };
  const symbol = mod.runtime.find((s) => s.name === name);
  if (!symbol) return undefined;
  if (symbol === mod.main || mod.moduleSystem === 'python') return bindingFor(mod, symbol).binding;
  // A bare use of an export (`clamp(…)` in its own @example) binds that export by its name,
  // even in CommonJS, where the smoke cases reach it as a property of the module value.
  return { local: name, import: 'named', name };
}

function symbolFor(b: OracleBinding, prop: string | undefined, mod: ModuleInfo): SymbolInfo | undefined {
  if (b.import === 'named') return mod.runtime.find((s) => s.name === (b.name ?? b.local));
  const viaProp = prop ? mod.runtime.find((s) => (s.name === prop || s.name === `${mod.local}.${prop}`) && s !== mod.main) : undefined;
  return viaProp ?? mod.main;
}

function declaredNames(stmt: string): string[] {
  const names: string[] = [];
  const decl = /^(?:const|let|var)\s+([A-Za-z_$][\w$]*)/.exec(stmt);
  if (decl) names.push(decl[1]);
  const py = /^([A-Za-z_][\w]*)\s*=[^=]/.exec(stmt);
  if (py) names.push(py[1]);
  const pyImport = /^from\s+\S+\s+import\s+(.+)$|^import\s+(.+)$/.exec(stmt);
  if (pyImport)
    for (const part of (pyImport[1] ?? pyImport[2]).split(','))
      names.push(
        part
          .trim()
          .split(/\s+as\s+/)
          .pop()!
          .split('.')[0],
      );
  return names;
}
