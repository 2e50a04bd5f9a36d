// The exported functions and classes of one file, for the editor's "Generate tests" CodeLens and
// "for Selection": read the way the crawler reads every file (same parsers), confined to the workspace.
// And the tests test files hold, for the Testing view.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { loadJsParser } from '../util/jsParser';
import { extractJsSymbols } from '../agents/crawler/jsSymbols';
import { loadPython } from '../frameworks/pyGrammar';
import { extractPySymbols } from '../agents/crawler/pySymbols';
import type { SymbolInfo } from '../contracts/types';
import { testsInFile } from '../frameworks/caseMap';
import type * as P from '../protocol';
import { resolveInside, workspaceRelative } from '../util/safePath';

const MAX_BYTES = 1024 * 1024;
const JS = /\.(?:[cm]?[jt]sx?)$/;

export async function exportedSymbols(workspace: string, file: string): Promise<P.ExportedSymbolsResult> {
  const abs = await resolveInside(workspace, file);
  const rel = workspaceRelative(await fsp.realpath(workspace), abs);
  const st = await fsp.stat(abs).catch(() => undefined);
  if (!st?.isFile() || st.size > MAX_BYTES || /\.d\.[cm]?ts$/.test(rel)) return { file: rel, symbols: [] };
  const text = await fsp.readFile(abs, 'utf8');
  let symbols: SymbolInfo[];
  if (rel.endsWith('.py')) symbols = extractPySymbols(await loadPython(), text).symbols;
  else if (JS.test(rel)) symbols = extractJsSymbols(await loadJsParser(), text, rel, path.basename(rel).replace(/\.[^.]+$/, '')).symbols;
  else return { file: rel, symbols: [] };
  const callable = symbols.filter((s) => s.exported && (s.kind === 'function' || s.kind === 'class') && s.line !== undefined);
  // A symbol's lines run to the line before the next one: enough to tell which a selection touches.
  const lines = callable.map((s) => s.line!).sort((a, b) => a - b);
  return {
    file: rel,
    symbols: callable.map((s) => {
      const next = lines.find((l) => l > s.line!);
      return { name: s.name, kind: s.kind, line: s.line!, endLine: next ? next - 1 : Math.max(s.line!, text.split('\n').length) };
    }),
  };
}

/** Every test in these test files, AMTP's and the person's (frameworks/caseMap.ts), for the Testing view; confined to the workspace. */
export async function fileTests(workspace: string, files: string[]): Promise<P.FileTestsResult> {
  const root = await fsp.realpath(workspace);
  const out: P.FileTestsResult['files'] = [];
  for (const file of files.slice(0, 500)) {
    const abs = await resolveInside(workspace, file).catch(() => undefined);
    const st = abs === undefined ? undefined : await fsp.stat(abs).catch(() => undefined);
    if (!abs || !st?.isFile() || st.size > MAX_BYTES) continue;
    const rel = workspaceRelative(root, abs);
    out.push({ file: rel, tests: testsInFile(rel, await fsp.readFile(abs, 'utf8')) });
  }
  return { files: out };
}
