import type { CrawlerOutput } from '../../contracts/types';
import { aliasesCouldMatter } from './aliasPrecheck';
import { namespaceAliases } from './namespaceAliases';
import { bindsPackage, calledSymbols, type ExportedName } from './readmeCalls';

export type { ExportedName } from './readmeCalls';

type Example = CrawlerOutput['usage_examples'][number];

const CODE_LANGS = new Set([
  '',
  'js',
  'javascript',
  'jsx',
  'ts',
  'typescript',
  'tsx',
  'mjs',
  'cjs',
  'py',
  'python',
  'pycon',
  'python3',
  'node',
]);

/**
 * Fenced code blocks of a README, each linked to the exported symbols it calls.
 * Blocks are kept as data only: nothing in them is followed or executed.
 */
export function readmeExamples(source: string, markdown: string, names: ExportedName[], opts: { alwaysParse?: boolean } = {}): Example[] {
  const out: Example[] = [];
  const lines = markdown.split(/\r?\n/);
  const blocks = fencedBlocks(lines);
  const exported = opts.alwaysParse || aliasesCouldMatter(blocks, names, markdown) ? withNamespaceAliases(blocks, names) : names;
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s{0,3})(`{3,}|~{3,})\s*([\w+-]*)/.exec(lines[i]);
    if (!open) continue;
    const fence = open[2];
    const lang = open[3].toLowerCase();
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !lines[j].trim().startsWith(fence)) body.push(lines[j++]);
    const code = body.join('\n');
    const start = i + 1;
    i = j;
    if (!CODE_LANGS.has(lang) || !code.trim()) continue;
    const symbols = calledSymbols(code, exported);
    // A block that only binds the package (`var lib = require('pkg')`) is kept: later blocks call through it.
    if (symbols.length === 0 && !bindsPackage(code, exported)) continue;
    out.push({ source, line: start, lang: lang || 'text', code: code.slice(0, 4000), symbols });
  }
  out.push(...tableExamples(source, lines, exported));
  return out;
}

/** The code of the fenced blocks in a code language. */
function fencedBlocks(lines: string[]): string[] {
  const blocks: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s{0,3})(`{3,}|~{3,})\s*([\w+-]*)/.exec(lines[i]);
    if (!open) continue;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !lines[j].trim().startsWith(open[2])) body.push(lines[j++]);
    if (CODE_LANGS.has(open[3].toLowerCase())) blocks.push(body.join('\n'));
    i = j;
  }
  return blocks;
}

/**
 * Exports are also called through a namespace the document never binds (`d3.min(…)`: namespaceAliases.ts).
 * readmeExamples parses the blocks only when such an alias could change what they call (aliasPrecheck.ts).
 */
function withNamespaceAliases(blocks: string[], exported: ExportedName[]): ExportedName[] {
  const aliases = namespaceAliases(blocks, new Set(exported.map((e) => e.name).filter((n) => !n.includes('.'))));
  if (!aliases.size) return exported;
  return exported.map((e) =>
    e.name.includes('.') ? e : { ...e, callNames: [...e.callNames, ...[...aliases].map((a) => `${a}.${e.name}`)] },
  );
}

/**
 * GFM tables whose rows pair a call with its result (`| \`slug('a b')\` | \`'a-b'\` |`), written out
 * as one snippet of `call //=> result` lines, so the generator reads them like any code block.
 */
function tableExamples(source: string, lines: string[], exported: ExportedName[]): Example[] {
  const out: Example[] = [];
  for (let i = 1; i < lines.length; i++) {
    if (!/^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)+\|?\s*$/.test(lines[i]) || !lines[i - 1].includes('|')) continue;
    const rows: string[] = [];
    let j = i + 1;
    for (; j < lines.length && lines[j].includes('|') && lines[j].trim(); j++) {
      const row = callAndResult(cellsOf(lines[j]));
      if (row) rows.push(`${row.call} //=> ${row.result}`);
    }
    const code = rows.join('\n');
    const symbols = rows.length ? calledSymbols(code, exported) : [];
    if (symbols.length) out.push({ source, line: i, lang: 'js', code: code.slice(0, 4000), symbols });
    i = j;
  }
  return out;
}

/** The cells of a table row; a `|` inside a code span or escaped as `\|` does not split. */
function cellsOf(row: string): string[] {
  const cells: string[] = [];
  let cur = '';
  let tick = false;
  const text = row.trim().replace(/^\|/, '').replace(/\|$/, '');
  for (let k = 0; k < text.length; k++) {
    const c = text[k];
    if (c === '\\' && text[k + 1] === '|') {
      cur += '|';
      k++;
    } else if (c === '`') {
      tick = !tick;
      cur += c;
    } else if (c === '|' && !tick) {
      cells.push(cur.trim());
      cur = '';
    } else cur += c;
  }
  cells.push(cur.trim());
  return cells;
}

/** The first cell that is one code span holding a call, and the next cell's code span (or bare text). */
function callAndResult(cells: string[]): { call: string; result: string } | undefined {
  const span = (cell: string | undefined) => /^`([^`]+)`$/.exec(cell ?? '')?.[1].trim();
  const at = cells.findIndex((c) => /\)\s*;?$/.test(span(c) ?? ''));
  if (at < 0 || at + 1 >= cells.length) return undefined;
  const result = span(cells[at + 1]) ?? cells[at + 1];
  return result && !/\n/.test(result) ? { call: span(cells[at])!.replace(/;$/, ''), result } : undefined;
}

/** Local names a README binds to the package: `var x = require('pkg')`, `import x from 'pkg'`, `from pkg import x`. */
export function importBindings(code: string, packageName: string): string[] {
  const q = packageName.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const out: string[] = [];
  for (const m of code.matchAll(new RegExp(`(?:var|let|const)\\s+([\\w$]+)\\s*=\\s*require\\(\\s*['"]${q}['"]\\s*\\)`, 'g')))
    out.push(m[1]);
  for (const m of code.matchAll(new RegExp(`import\\s+([\\w$]+)\\s*(?:,\\s*\\{[^}]*\\})?\\s*from\\s*['"]${q}['"]`, 'g'))) out.push(m[1]);
  for (const m of code.matchAll(new RegExp(`import\\s+\\*\\s+as\\s+([\\w$]+)\\s+from\\s*['"]${q}['"]`, 'g'))) out.push(m[1]);
  for (const m of code.matchAll(new RegExp(`^\\s*import\\s+${q}(?:\\s+as\\s+(\\w+))?`, 'gm'))) out.push(m[1] ?? packageName);
  return out;
}
