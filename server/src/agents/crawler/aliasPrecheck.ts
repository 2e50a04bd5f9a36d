// Finding a README's namespace aliases (namespaceAliases.ts) parses its code blocks, again after
// each syntax error of a block that is not a whole program (util/jsRecover.ts). Most READMEs have
// no alias that could change anything: this scan tells so without the parser, and answers "parse"
// whenever it cannot be sure, so the examples found are the same.
import { bindsPackagePattern, callPattern, type ExportedName } from './readmeCalls';

const isIdentChar = (c: number) =>
  (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x24;
const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x0b || c === 0x0c;

/**
 * The receivers a parse could report calling at least `minMembers` names of `names` through (`d3`
 * of `d3.min(…)`, `d3.max(…)`), and more: any ASCII word right before `.name` or `?.name`, in
 * strings and comments too. undefined when a block holds what this scan cannot read the way the
 * parser does: a unicode escape, a non-ASCII character next to such a dot, or a comment between a
 * receiver and its dot.
 */
export function receiverCandidates(blocks: string[], names: Set<string>, minMembers: number): Set<string> | undefined {
  const members = new Map<string, Set<string>>();
  const add = (receiver: string, name: string) => {
    if (!members.has(receiver)) members.set(receiver, new Set());
    members.get(receiver)!.add(name);
  };
  const nonAscii = [...names].some((n) => /[^\x00-\x7f]/.test(n));
  for (const code of blocks) {
    if (code.includes('\\u')) return undefined;
    for (let dot = code.indexOf('.'); dot >= 0; dot = code.indexOf('.', dot + 1)) {
      const name = memberAfter(code, dot, names, nonAscii);
      if (name === null) return undefined;
      if (name === undefined) continue;
      const receiver = receiverBefore(code, dot);
      if (receiver === null) return undefined;
      if (receiver === undefined) continue;
      add(receiver, name);
    }
  }
  return new Set([...members].filter(([, m]) => m.size >= minMembers).map(([r]) => r));
}

/**
 * The name after the dot (spaces and comments allowed) when it is one of `names`; null when unsure:
 * a non-ASCII character in the name where `names` has a name it could complete.
 */
function memberAfter(code: string, dot: number, names: Set<string>, nonAscii: boolean): string | undefined | null {
  let i = dot + 1;
  for (;;) {
    while (i < code.length && isSpace(code.charCodeAt(i))) i++;
    if (code.startsWith('//', i)) i = lineEnd(code, i);
    else if (code.startsWith('/*', i)) i = code.indexOf('*/', i + 2) < 0 ? code.length : code.indexOf('*/', i + 2) + 2;
    else break;
  }
  const start = i;
  while (i < code.length && isIdentChar(code.charCodeAt(i))) i++;
  const name = code.slice(start, i);
  if (i < code.length && code.charCodeAt(i) > 0x7f) return nonAscii || names.has(name) ? null : undefined;
  return names.has(name) ? name : undefined;
}

/** Where the line holding `i` ends: a line comment stops at any of JavaScript's line terminators. */
function lineEnd(code: string, i: number): number {
  const m = /[\n\r\u2028\u2029]/.exec(code.slice(i));
  return m ? i + m.index : code.length;
}

/**
 * The word before the dot (`?.` and spaces allowed); undefined where none is (after `)`, `]`, a
 * string); null when unsure: a `/` before it (a comment's end), a line comment on a line the spaces
 * cross, a non-ASCII character, or a word that starts with a digit.
 */
function receiverBefore(code: string, dot: number): string | undefined | null {
  let k = dot - 1;
  if (code[k] === '?') k--;
  let crossedLine = false;
  while (k >= 0 && isSpace(code.charCodeAt(k))) {
    if (code[k] === '\n' || code[k] === '\r') crossedLine = true;
    k--;
  }
  if (k < 0) return undefined;
  if (crossedLine) {
    const lineStart = Math.max(code.lastIndexOf('\n', k), code.lastIndexOf('\r', k)) + 1;
    if (code.slice(lineStart, k + 1).includes('//')) return null;
  }
  if (code.charCodeAt(k) > 0x7f || code[k] === '/') return null;
  const end = k + 1;
  while (k >= 0 && isIdentChar(code.charCodeAt(k))) k--;
  if (k >= 0 && code.charCodeAt(k) > 0x7f) return null;
  const word = code.slice(k + 1, end);
  // `1d3.min`: where a number ends and a name starts is the parser's call (`1e3`, `0x1f`, `1n`).
  return /^[0-9]/.test(word) ? null : word || undefined;
}

/**
 * False when no alias a parse of `blocks` could find would change what `markdown`'s examples call:
 * every candidate receiver is a global, an exported name, or adds call names that match nowhere in
 * the document and no binding `bindsPackage` would newly look for.
 */
export function aliasesCouldMatter(blocks: string[], exported: ExportedName[], markdown: string, minMembers = 2): boolean {
  const names = new Set(exported.map((e) => e.name).filter((n) => !n.includes('.')));
  if (names.size === 0) return false;
  const candidates = receiverCandidates(blocks, names, minMembers);
  if (!candidates) return true;
  const known = new Set(exported.flatMap((e) => e.callNames));
  const prefixes = new Set([...known].filter((c) => c.includes('.')).map((c) => c.split('.')[0]));
  for (const alias of candidates) {
    if (alias in globalThis || names.has(alias)) continue;
    if (!prefixes.has(alias) && bindsPackagePattern(alias).test(markdown)) return true;
    for (const name of names) {
      const call = `${alias}.${name}`;
      if (!known.has(call) && markdown.includes(call) && callPattern(call).test(markdown)) return true;
    }
  }
  return false;
}
