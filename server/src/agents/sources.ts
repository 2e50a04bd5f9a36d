// Each target's whole source, cut from the crawler's map by the lines the syntax tree gave its
// declaration (symbols[].line..end_line), with the helpers it uses (symbols[].calls,
// key_files[].helpers): its module's own, and the package's other modules' it imports. Never a window cut mid-body: a declaration too large for a batch becomes an
// outline instead — a class without its method bodies (each method is its own symbol), a function
// by its first line — and says so.
import type { CrawlerOutput, KeyFile, SymbolInfo, SymbolSource } from '../contracts/types';

/** The lines of a key file the map holds (a cut sample holds only its first lines). */
function linesOf(map: CrawlerOutput, path: string): string[] | undefined {
  const sample = map.samples?.find((s) => s.path === path);
  if (!sample) return undefined;
  const lines = sample.content.split('\n');
  // A cut sample's last line may itself be cut: only whole lines count.
  return sample.truncated ? lines.slice(0, -1) : lines;
}

function keyFile(map: CrawlerOutput, path: string): KeyFile | undefined {
  return map.key_files.find((k) => k.path === path);
}

/** Lines `from..to` (1-based, inclusive) of the file, or undefined when the map does not hold all of them. */
function slice(lines: string[] | undefined, from: number, to: number): string | undefined {
  if (!lines || from < 1 || to < from || to > lines.length) return undefined;
  return lines.slice(from - 1, to).join('\n');
}

/** A symbol's declaration lines; undefined when the crawler gave no end (an older map) or the map lacks the text. */
export function symbolSource(map: CrawlerOutput, path: string, sym: SymbolInfo): SymbolSource | undefined {
  if (!sym.line || !sym.end_line) return undefined;
  const code = slice(linesOf(map, path), sym.line, sym.end_line);
  return code === undefined ? undefined : { path, name: sym.name, line: sym.line, code };
}

/**
 * The whole source of each name a symbol uses: a declaration of its module (a helper, or another
 * symbol of the file), or one of the package's other modules that the file imports (the helper's
 * `path`), in file order, the same module's first.
 */
export function helperSources(map: CrawlerOutput, path: string, sym: SymbolInfo): SymbolSource[] {
  const file = keyFile(map, path);
  const out: SymbolSource[] = [];
  for (const name of sym.calls ?? []) {
    const span = file?.helpers?.find((h) => h.name === name) ?? file?.symbols.find((s) => s.name === name && s.line && s.end_line);
    const from = (span && 'path' in span && span.path) || path;
    const code = span?.line && span.end_line ? slice(linesOf(map, from), span.line, span.end_line) : undefined;
    if (code !== undefined) out.push({ path: from, name, helper: true, line: span!.line!, code });
  }
  return out.sort((a, b) => (a.path === b.path ? a.line - b.line : a.path === path ? -1 : b.path === path ? 1 : a.path < b.path ? -1 : 1));
}

/**
 * The declaration in fewer lines, cut on the syntax tree: a class keeps each method's first line and
 * drops its body (the methods are symbols with their own source); anything else keeps its first line.
 */
export function outlineSource(map: CrawlerOutput, path: string, sym: SymbolInfo): SymbolSource | undefined {
  const whole = symbolSource(map, path, sym);
  if (!whole) return undefined;
  const lines = whole.code.split('\n');
  const marker = (n: number) => `${indentOf(lines[0])}  ${commentFor(path)} … ${n} line(s) left out: too large for one batch`;
  if (sym.kind === 'class') {
    const methods = (keyFile(map, path)?.symbols ?? [])
      .filter((m) => m.name.startsWith(`${sym.name}.`) && m.line && m.end_line && m.line > sym.line! && m.end_line <= sym.end_line!)
      .sort((a, b) => a.line! - b.line!);
    const out: string[] = [];
    let at = sym.line!;
    for (const m of methods) {
      if (m.line! < at) continue; // nested in a method already left out
      out.push(...lines.slice(at - sym.line!, m.line! - sym.line! + 1));
      if (m.end_line! > m.line!) out.push(marker(m.end_line! - m.line!));
      at = m.end_line! + 1;
    }
    out.push(...lines.slice(at - sym.line!));
    if (methods.length) return { ...whole, code: out.join('\n'), outline: true };
  }
  return { ...whole, code: lines.length > 1 ? `${lines[0]}\n${marker(lines.length - 1)}` : lines[0], outline: lines.length > 1 };
}

function indentOf(line: string): string {
  return /^\s*/.exec(line)![0];
}

function commentFor(path: string): string {
  return path.endsWith('.py') ? '#' : '//';
}

/**
 * Entries in file order, each declaration once: a helper that is also a symbol of the batch keeps its
 * symbol entry, and code inside another entry's lines (a method inside its shown class) is not repeated.
 */
export function dedupeSources(list: SymbolSource[]): SymbolSource[] {
  const byKey = new Map<string, SymbolSource>();
  for (const s of list) {
    const key = `${s.path}\n${s.name}`;
    const had = byKey.get(key);
    if (!had || (had.helper && !s.helper)) byKey.set(key, s);
  }
  const all = [...byKey.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
  const end = (s: SymbolSource) => s.line + s.code.split('\n').length - 1;
  return all.filter(
    (s) =>
      !all.some(
        (o) => o !== s && !o.outline && o.path === s.path && o.line <= s.line && end(o) >= end(s) && (o.line < s.line || end(o) > end(s)),
      ),
  );
}
