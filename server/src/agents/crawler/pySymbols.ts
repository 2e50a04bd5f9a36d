import type { SymbolInfo } from '../../contracts/types';

export interface PyFileFacts {
  symbols: SymbolInfo[];
  imports: string[];
}

/**
 * A careful line-based reader of a Python module's top level: def/async def/class (with
 * multi-line signatures and decorators), their docstrings, `>>>` doctest lines, `Raises:`
 * sections and `__all__`. Methods of public classes are included as `Class.method`.
 */
export function extractPySymbols(text: string): PyFileFacts {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const facts: PyFileFacts = { symbols: [], imports: [] };
  const all = parseDunderAll(text);
  let currentClass: { name: string; indent: number } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const imp = /^(?:from\s+([.\w]+)\s+import|import\s+([.\w]+))/.exec(line);
    if (imp) facts.imports.push(imp[1] ?? imp[2]);
    const m = /^(\s*)(async\s+def|def|class)\s+([A-Za-z_]\w*)/.exec(line);
    if (!m) continue;
    const indent = m[1].length;
    if (currentClass && indent <= currentClass.indent) currentClass = undefined;
    const isClass = m[2] === 'class';
    const name = m[3];
    if (indent > 0 && !(currentClass && indent > currentClass.indent && !isClass)) continue;
    // Signature: join lines until the parentheses balance and the header's ':' arrives.
    let header = line.trim();
    let j = i;
    while (!headerDone(header) && j + 1 < lines.length && j - i < 50) header += ` ${lines[++j].trim()}`;
    const doc = readDocstring(lines, j + 1);
    if (indent === 0) {
      if (isClass) currentClass = { name, indent };
      const exported = all ? all.has(name) : !name.startsWith('_');
      facts.symbols.push(build(name, isClass ? 'class' : 'function', header, doc, i + 1, exported));
    } else if (currentClass && (!name.startsWith('_') || name === '__init__' || name === '__call__')) {
      facts.symbols.push(build(`${currentClass.name}.${name}`, 'method', header, doc, i + 1, true));
    }
    i = j;
  }
  return facts;
}

function headerDone(h: string): boolean {
  let depth = 0;
  for (const c of h) {
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
  }
  return depth <= 0 && /:\s*(#.*)?$/.test(h);
}

function build(name: string, kind: SymbolInfo['kind'], header: string, doc: string | undefined, line: number, exported: boolean): SymbolInfo {
  const sym: SymbolInfo = { name, kind, exported, export_style: 'python', line };
  const sig = /^(?:async\s+)?(?:def|class)\s+\w+\s*(\((.*)\))?\s*(?:->\s*(.+?))?\s*:\s*(#.*)?$/.exec(header);
  const paramText = sig?.[2] ?? '';
  sym.signature = header.replace(/:\s*(#.*)?$/, '').replace(/^(async\s+)?(def|class)\s+/, '$1');
  if (header.startsWith('async')) sym.async = true;
  if (kind !== 'class') {
    sym.params = splitTopLevel(paramText)
      .filter((p) => p && p !== '/' && p !== '*')
      .map((p) => {
        const pm = /^(\*{0,2})(\w+)\s*(?::\s*([^=]+?))?\s*(?:=\s*(.+))?$/.exec(p);
        if (!pm) return { name: p };
        const out: NonNullable<SymbolInfo['params']>[number] = { name: pm[2] };
        if (pm[3]) out.type = pm[3].trim();
        if (pm[4] !== undefined) {
          out.default = pm[4].trim();
          out.optional = true;
        }
        if (pm[1]) out.rest = true;
        return out;
      })
      .filter((p) => kind !== 'method' || (p.name !== 'self' && p.name !== 'cls'));
    if (sig?.[3]) sym.returns = sig[3].trim();
  }
  if (doc) {
    sym.doc = doc.slice(0, 2000);
    const examples = doctestBlocks(doc);
    if (examples.length) sym.examples = examples;
    const throws = raisesOf(doc);
    if (throws.length) sym.throws = throws;
  }
  return sym;
}

function splitTopLevel(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const c of s) {
    if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    if (c === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
    } else cur += c;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

function readDocstring(lines: string[], from: number): string | undefined {
  let i = from;
  while (i < lines.length && lines[i].trim() === '') i++;
  const first = lines[i]?.trim() ?? '';
  const q = /^[rRuU]?("""|''')/.exec(first);
  if (!q) return undefined;
  const quote = q[1];
  const rest = first.slice(q[0].length);
  const close = rest.indexOf(quote);
  if (close !== -1) return rest.slice(0, close).trim();
  const body = [rest];
  for (i++; i < lines.length; i++) {
    const end = lines[i].indexOf(quote);
    if (end !== -1) {
      body.push(lines[i].slice(0, end));
      break;
    }
    body.push(lines[i]);
  }
  return dedent(body).trim();
}

function dedent(lines: string[]): string {
  const indents = lines.slice(1).filter((l) => l.trim()).map((l) => /^\s*/.exec(l)![0].length);
  const cut = indents.length ? Math.min(...indents) : 0;
  return [lines[0], ...lines.slice(1).map((l) => l.slice(cut))].join('\n');
}

/** Groups `>>>`/`...` lines with the expected output lines that follow them. */
function doctestBlocks(doc: string): string[] {
  const blocks: string[] = [];
  let cur: string[] = [];
  for (const raw of doc.split('\n')) {
    const l = raw.trim();
    if (l.startsWith('>>>') || (cur.length && l.startsWith('...'))) cur.push(l);
    else if (cur.length && l) cur.push(l);
    else if (cur.length) {
      blocks.push(cur.join('\n'));
      cur = [];
    }
  }
  if (cur.length) blocks.push(cur.join('\n'));
  return blocks;
}

function raisesOf(doc: string): string[] {
  const out: string[] = [];
  const section = /(?:^|\n)\s*Raises:?\s*\n((?:[ \t]+\S.*\n?)+)/.exec(doc);
  if (section) for (const l of section[1].split('\n')) {
    const m = /^\s+([A-Z]\w*(?:\.\w+)*)\s*:?\s*(.*)$/.exec(l);
    if (m) out.push(m[2] ? `${m[1]}: ${m[2]}` : m[1]);
  }
  for (const m of doc.matchAll(/:raises?\s+(\w+):\s*(.*)/g)) out.push(`${m[1]}: ${m[2]}`.trim());
  return out;
}

function parseDunderAll(text: string): Set<string> | undefined {
  const m = /^__all__\s*(?::[^=]*)?=\s*[[(]([\s\S]*?)[\])]/m.exec(text);
  if (!m) return undefined;
  return new Set([...m[1].matchAll(/['"]([A-Za-z_]\w*)['"]/g)].map((x) => x[1]));
}
