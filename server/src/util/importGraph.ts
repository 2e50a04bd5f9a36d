// Which source files import which, by their relative import specifiers (JavaScript, TypeScript:
// require, import, export from, dynamic import; Python: `from .x import y`). Read from the text, not
// run: enough to say what a change to a file can reach (app/incremental.ts) and what a module's
// behaviour can depend on (characterize/cache.ts). Imports of packages are not followed.
import { readFileSync } from 'node:fs';
import { posix } from 'node:path';

const TEST_PATH = /(?:^|\/)(?:__tests__|test|tests|spec)\/|\.(?:test|spec)\.[^/]+$|(?:^|\/)test_[^/]*\.py$|_test\.py$/;

/** A test file by its path (test folders, .test./.spec. names, test_*.py): never a module a change reaches through. */
export function isTestPath(p: string): boolean {
  return TEST_PATH.test(p);
}

/** Each product file's relative imports (workspace-relative paths among `files`). */
export function importGraph(ws: string, files: Iterable<string>): Map<string, string[]> {
  const all = new Set(files);
  const out = new Map<string, string[]>();
  for (const f of all) {
    if (isTestPath(f)) continue;
    try {
      out.set(f, importsOf(f, readFileSync(`${ws}/${f}`, 'utf8'), all));
    } catch {
      // Unreadable: it imports nothing we can see.
    }
  }
  return out;
}

/** The changed files and every source file that imports one of them, directly or through others. */
export function reachedBy(ws: string, sources: Record<string, string>, changed: string[]): string[] {
  const importers = new Map<string, Set<string>>();
  for (const [f, deps] of importGraph(ws, Object.keys(sources)))
    for (const d of deps) importers.set(d, (importers.get(d) ?? new Set()).add(f));
  return closure(
    changed.filter((f) => f in sources),
    (f) => importers.get(f) ?? [],
  );
}

/** The file and every file it imports, directly or through others. */
export function dependenciesOf(graph: Map<string, string[]>, file: string): string[] {
  return closure([file], (f) => graph.get(f) ?? []);
}

function closure(start: string[], next: (f: string) => Iterable<string>): string[] {
  const seen = new Set(start);
  const queue = [...start];
  while (queue.length)
    for (const n of next(queue.pop()!))
      if (!seen.has(n)) {
        seen.add(n);
        queue.push(n);
      }
  return [...seen].sort();
}

const JS_SPEC = /(?:\brequire\s*\(\s*|\bimport\s*\(\s*|\bfrom\s+|\bimport\s+)['"](\.{1,2}\/[^'"]*|\.{1,2})['"]/g;
const PY_FROM = /^\s*from\s+(\.+)([\w.]*)\s+import\s+([\w\s,()*]+)/gm;
const JS_EXT = ['', '.js', '.cjs', '.mjs', '.ts', '.tsx', '.jsx', '.cts', '.mts', '/index.js', '/index.ts', '/index.cjs', '/index.mjs'];

/** The workspace files a source file imports by a relative specifier (JavaScript, TypeScript) or a relative `from . import` (Python). */
function importsOf(file: string, text: string, files: Set<string>): string[] {
  const dir = posix.dirname(file);
  const out: string[] = [];
  if (file.endsWith('.py')) {
    for (const m of text.matchAll(PY_FROM)) {
      let base = dir;
      for (let i = 1; i < m[1].length; i++) base = posix.dirname(base);
      const mod = m[2] ? posix.join(base, ...m[2].split('.')) : base;
      const names = m[2] ? [''] : m[3].split(/[\s,()]+/).filter(Boolean);
      for (const n of names) {
        const stem = n ? posix.join(mod, n) : mod;
        for (const cand of [`${stem}.py`, `${stem}/__init__.py`]) if (files.has(cand)) out.push(cand);
      }
    }
    return out;
  }
  for (const m of text.matchAll(JS_SPEC)) {
    const spec = posix.normalize(posix.join(dir, m[1]));
    const stem = spec.replace(/\.(?:js|cjs|mjs)$/, '');
    const hit = [...JS_EXT.map((e) => spec + e), ...['.ts', '.tsx', '.mts', '.cts'].map((e) => stem + e)].find((c) => files.has(c));
    if (hit) out.push(hit);
  }
  return out;
}
