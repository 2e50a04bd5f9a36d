// The static map narrowed to a run's scope: only the scoped key files, and in them only the scoped
// symbols (by name, or because their code overlaps changed lines), with the usage examples and
// samples that concern them. The rest of the map (project, test setup, entry points) stays, so
// tests still import and run the way the project does. What the scope left out is said in `omitted`.
import type { CrawlerOutput, KeyFile, SymbolInfo } from '../../contracts/types';
import type { RunScope, ScopedFile } from '../../core/scope';

export function scopeMap(map: CrawlerOutput, scope: RunScope): CrawlerOutput {
  const wanted = new Map(scope.files.map((f) => [f.path, f]));
  const keyFiles: KeyFile[] = [];
  for (const k of map.key_files) {
    const s = wanted.get(k.path);
    if (!s) continue;
    const symbols = k.symbols.filter((sym) => inScope(sym, s, k.symbols));
    if (symbols.length) keyFiles.push({ ...k, symbols });
  }
  const names = new Set(keyFiles.flatMap((k) => k.symbols.map((s) => s.name)));
  const outside = map.key_files.length - keyFiles.length;
  keyFiles.push(...entryReExports(map, keyFiles, names));
  // The samples of the scoped files, and of the modules whose declarations their symbols call (helpers' `path`).
  const paths = new Set([...keyFiles.map((k) => k.path), ...keyFiles.flatMap((k) => (k.helpers ?? []).flatMap((h) => h.path ?? []))]);
  const asked =
    [...(scope.only ?? []).map((o) => `--only ${o}`), ...(scope.changedSince ? [`--changed-since ${scope.changedSince}`] : [])].join(' ') ||
    "the run's scope";
  const missing = scope.files.filter((f) => !map.key_files.some((k) => k.path === f.path));
  return {
    ...map,
    key_files: keyFiles,
    usage_examples: map.usage_examples.filter((u) => u.symbols.some((n) => names.has(n))),
    ...(map.samples ? { samples: map.samples.filter((s) => paths.has(s.path)) } : {}),
    omitted: [
      ...(map.omitted ?? []),
      ...(outside ? [{ what: 'key files outside the scope', count: outside, reason: `not in ${asked}` }] : []),
      ...(missing.length
        ? [
            {
              what: `scoped files with no exported symbol AMTP can test (${missing.map((m) => m.path).join(', ')})`,
              count: missing.length,
              reason: 'not a module with exports the crawler found',
            },
          ]
        : []),
    ],
  };
}

/** The whole file when it names neither symbols nor lines; otherwise a named symbol, or one whose code changed. */
function inScope(sym: SymbolInfo, s: ScopedFile, all: SymbolInfo[]): boolean {
  if (!s.symbols && !s.lines) return true;
  if (s.symbols?.some((n) => sym.name === n || sym.name.startsWith(`${n}.`))) return true;
  if (!s.lines) return false;
  const [from, to] = span(sym, all);
  return s.lines.some(([a, b]) => a <= to && b >= from);
}

/** A symbol's lines: its declaration's (from the syntax tree), else up to the line before the next symbol (or the end of the file). */
function span(sym: SymbolInfo, all: SymbolInfo[]): [number, number] {
  const start = sym.line ?? 1;
  if (sym.end_line) return [start, sym.end_line];
  const next = all
    .map((s) => s.line ?? 0)
    .filter((l) => l > start)
    .sort((a, b) => a - b)[0];
  return [start, next ? next - 1 : Number.MAX_SAFE_INTEGER];
}

/**
 * The package's entry files, narrowed to the exports named like the scoped symbols (`index.js`'s
 * `coerce: require('./functions/coerce')` for `functions/coerce.js#coerce`): docs call them through
 * the entry (`semver.coerce('v2')`), so a scoped run tests them the way the docs do.
 */
function entryReExports(map: CrawlerOutput, scoped: KeyFile[], names: Set<string>): KeyFile[] {
  const inScope = new Set(scoped.map((k) => k.path));
  const entries = new Set(map.entry_points.filter((e) => e.kind !== 'types' && e.kind !== 'bin').map((e) => e.path.replace(/^\.\//, '')));
  return map.key_files
    .filter((k) => entries.has(k.path) && !inScope.has(k.path))
    .map((k) => ({ ...k, symbols: k.symbols.filter((s) => s.exported && names.has(s.name)) }))
    .filter((k) => k.symbols.length > 0);
}
