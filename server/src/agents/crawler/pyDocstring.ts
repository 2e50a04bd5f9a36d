// What a Python docstring says, in schema terms: its cleaned text, its doctest examples and the
// exceptions it documents. The docstring itself comes from the parser (pySymbols.ts); this file
// reads the docstring's prose conventions, which no Python parser knows: Google (`Raises:`),
// NumPy (`Raises` over a dashed underline) and reST (`:raises X:`) sections, and doctest blocks.

/** `inspect.cleandoc`: first line stripped, the common indent of the rest removed, outer blank lines dropped. */
export function cleandoc(doc: string): string {
  const lines = doc.replace(/\t/g, '        ').split('\n');
  let margin = Infinity;
  for (const l of lines.slice(1)) {
    const content = l.trimStart();
    if (content) margin = Math.min(margin, l.length - content.length);
  }
  const out = [lines[0].trimStart(), ...lines.slice(1).map((l) => (margin === Infinity ? l : l.slice(margin)))];
  while (out.length && !out[0].trim()) out.shift();
  while (out.length && !out[out.length - 1].trim()) out.pop();
  return out.join('\n').trim();
}

/**
 * Doctest blocks: a `>>>` line, its `...` continuation lines, further `>>>` lines and the expected
 * output lines after them, up to a blank line. The prompt's indent is removed; deeper indent is
 * kept, since doctest compares output lines with it.
 */
export function doctestBlocks(doc: string): string[] {
  const blocks: string[] = [];
  let cur: string[] = [];
  let indent = 0;
  let open: string | undefined; // the triple quote a `>>>` line opened and has not closed yet
  for (const raw of doc.split('\n')) {
    const l = raw.trimStart();
    if (open && cur.length) {
      // docopt writes `>>> doc = '''` and the string's lines without `...`: they are its continuation
      const prompted = l.startsWith('...');
      const own = raw.length - l.length;
      cur.push(prompted ? (own >= indent ? raw.slice(indent) : l).trimEnd() : `... ${raw.slice(Math.min(indent, own))}`.trimEnd());
      if ((prompted ? l.slice(3) : l).includes(open)) open = undefined;
      continue;
    }
    if (l.startsWith('>>>') || l.startsWith('...')) open = unclosedTripleQuote(l.slice(3));
    if (!cur.length && l.startsWith('>>>')) {
      indent = raw.length - l.length;
      cur.push(l);
    } else if (cur.length && l) {
      const own = raw.length - l.length;
      cur.push(own >= indent ? raw.slice(indent).trimEnd() : l);
    } else if (cur.length) {
      blocks.push(cur.join('\n'));
      cur = [];
    }
  }
  if (cur.length) blocks.push(cur.join('\n'));
  return blocks;
}

/** The triple quote a line of code leaves open (`doc = '''`), if any. */
function unclosedTripleQuote(code: string): string | undefined {
  let open: string | undefined;
  for (const m of code.matchAll(/'''|"""/g))
    if (!open) open = m[0];
    else if (m[0] === open) open = undefined;
  return open;
}

const EXCEPTION = /^([A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*)\s*(?::\s*(.*))?$/;

/** Exceptions a docstring documents, as `Name: description` (or `Name`), in the order given. */
export function raisesOf(doc: string): string[] {
  const lines = doc.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const head = /^(\s*)Raises:?\s*$/.exec(line);
    if (head && /^\s*-{3,}\s*$/.test(lines[i + 1] ?? '')) i = numpySection(lines, i + 1, head[1].length, out);
    else if (head) i = googleSection(lines, i, head[1].length, out);
    else i = restField(lines, i, out);
  }
  return out;
}

const indentOf = (l: string) => l.length - l.trimStart().length;

/** Google: entries indented under `Raises:`, each `Name: text`, continued by deeper lines. Returns the last line read. */
function googleSection(lines: string[], header: number, headerIndent: number, out: string[]): number {
  let entryIndent = -1;
  let i = header + 1;
  for (; i < lines.length; i++) {
    const l = lines[i];
    if (!l.trim()) {
      if (entryIndent >= 0 && !(lines[i + 1] && indentOf(lines[i + 1]) > headerIndent)) break;
      continue;
    }
    const ind = indentOf(l);
    if (ind <= headerIndent) break;
    if (entryIndent < 0) entryIndent = ind;
    const m = ind === entryIndent ? EXCEPTION.exec(l.trim()) : null;
    if (m) out.push(m[2] ? `${m[1]}: ${m[2].trim()}` : m[1]);
    else if (out.length && ind > entryIndent) out[out.length - 1] = appendText(out[out.length - 1], l.trim());
  }
  return i - 1;
}

/** NumPy: `Raises` over dashes; each exception on its own line, its description on deeper lines. */
function numpySection(lines: string[], underline: number, headerIndent: number, out: string[]): number {
  let i = underline + 1;
  for (; i < lines.length; i++) {
    const l = lines[i];
    if (!l.trim()) continue;
    if (/^\s*-{3,}\s*$/.test(lines[i + 1] ?? '')) break; // the next section's title
    const ind = indentOf(l);
    if (ind < headerIndent) break;
    if (ind === headerIndent) {
      const m = EXCEPTION.exec(l.trim());
      if (!m) break;
      out.push(m[2] ? `${m[1]}: ${m[2].trim()}` : m[1]);
    } else if (out.length) out[out.length - 1] = appendText(out[out.length - 1], l.trim());
  }
  return i - 1;
}

/** reST field: `:raises ValueError: text` (also `:raise`, `:except`, `:exception`), continued by deeper lines. */
function restField(lines: string[], i: number, out: string[]): number {
  const m = /^(\s*):(?:raises?|except|exception)\s+([A-Za-z_][\w.]*)\s*:\s*(.*)$/.exec(lines[i]);
  if (!m) return i;
  const text = [m[3].trim()].filter(Boolean);
  let j = i + 1;
  for (; j < lines.length && lines[j].trim() && indentOf(lines[j]) > m[1].length && !lines[j].trim().startsWith(':'); j++)
    text.push(lines[j].trim());
  out.push(text.length ? `${m[2]}: ${text.join(' ')}` : m[2]);
  return j - 1;
}

function appendText(entry: string, more: string): string {
  return entry.includes(': ') || !/^[\w.]+$/.test(entry) ? `${entry} ${more}` : `${entry}: ${more}`;
}
