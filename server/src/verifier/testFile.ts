// Finds, removes, replaces and skips individual tests inside a written test file, by case id.
// JavaScript/TypeScript: the TypeScript parser finds `it(...)`/`test(...)` calls whose name holds the
// id (any nesting, any framework). Python: top-level `def test_…tc_…` functions with their decorators.
import * as ts from 'typescript';

const ID = /tc_[0-9a-f]{12}/;
const TEST_FNS = new Set(['it', 'test', 'specify']);

export interface TestBlock {
  caseId: string;
  /** text offsets of the whole statement, leading comments included (`fullStart`) or not (`start`) */
  fullStart: number;
  start: number;
  end: number;
  /** the callee (`it`, `test`, `it.only`…); Python: the function name */
  callee: string;
  calleeStart: number;
  calleeEnd: number;
  indent: string;
}

export const isPython = (path: string) => path.endsWith('.py');

export function findTests(path: string, content: string): TestBlock[] {
  return isPython(path) ? findPython(content) : findJs(path, content);
}

function findJs(path: string, content: string): TestBlock[] {
  const kind = /\.(c|m)?tsx?$/.test(path) ? (path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS) : ts.ScriptKind.JS;
  const sf = ts.createSourceFile(path, content, ts.ScriptTarget.Latest, true, kind);
  const out: TestBlock[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isExpressionStatement(node) && ts.isCallExpression(node.expression)) {
      const call = node.expression;
      const base = calleeBase(call.expression);
      const name = call.arguments[0];
      if (base && TEST_FNS.has(base) && name && (ts.isStringLiteral(name) || ts.isNoSubstitutionTemplateLiteral(name))) {
        const id = ID.exec(name.text)?.[0];
        if (id) {
          const start = node.getStart(sf);
          const lineStart = content.lastIndexOf('\n', start - 1) + 1;
          out.push({
            caseId: id, fullStart: node.getFullStart(), start, end: node.getEnd(), callee: call.expression.getText(sf),
            calleeStart: call.expression.getStart(sf), calleeEnd: call.expression.getEnd(), indent: content.slice(lineStart, start).replace(/\S.*$/, ''),
          });
          return;
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

function calleeBase(e: ts.Expression): string | undefined {
  if (ts.isIdentifier(e)) return e.text;
  if (ts.isPropertyAccessExpression(e) && ts.isIdentifier(e.expression)) return e.expression.text;
  return undefined;
}

function findPython(content: string): TestBlock[] {
  const lines = content.split('\n');
  const offsets: number[] = [];
  let o = 0;
  for (const l of lines) { offsets.push(o); o += l.length + 1; }
  const out: TestBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^(async\s+)?def\s+(test\w*)\s*\(/.exec(lines[i]);
    if (!m) continue;
    const id = ID.exec(m[2])?.[0];
    if (!id) continue;
    let first = i;
    while (first > 0 && /^@/.test(lines[first - 1])) first--;
    let full = first;
    while (full > 0 && /^#/.test(lines[full - 1])) full--;
    let last = i;
    for (let j = i + 1; j < lines.length; j++) {
      if (lines[j].trim() === '') continue;
      if (/^\S/.test(lines[j])) break;
      last = j;
    }
    const start = offsets[first];
    const nameStart = offsets[i] + lines[i].indexOf(m[2]);
    out.push({ caseId: id, fullStart: full === first ? start : offsets[full], start, end: offsets[last] + lines[last].length, callee: m[2], calleeStart: nameStart, calleeEnd: nameStart + m[2].length, indent: '' });
  }
  return out;
}

/** The source text of a case's test(s), for repair prompts and evidence checks. */
export function testSource(path: string, content: string, caseId: string): string | undefined {
  const blocks = findTests(path, content).filter((b) => b.caseId === caseId);
  return blocks.length ? blocks.map((b) => content.slice(b.start, b.end)).join('\n\n') : undefined;
}

/** Removes every test of these cases, with the comments right above them. */
export function removeTests(path: string, content: string, caseIds: Iterable<string>): string {
  const ids = new Set(caseIds);
  const blocks = findTests(path, content).filter((b) => ids.has(b.caseId)).sort((a, b) => b.start - a.start);
  let text = content;
  for (const b of blocks) {
    if (isPython(path)) {
      // drop the block and the blank lines after it
      let end = b.end;
      while (text[end] === '\n' && text[end + 1] === '\n') end++;
      text = text.slice(0, b.fullStart) + text.slice(end + 1);
    } else {
      text = text.slice(0, b.fullStart) + text.slice(b.end);
    }
  }
  return text;
}

/** Keeps only the tests of these cases (the file's imports and helpers stay). */
export function keepOnlyTests(path: string, content: string, caseIds: Iterable<string>): string {
  const keep = new Set(caseIds);
  return removeTests(path, content, findTests(path, content).map((b) => b.caseId).filter((id) => !keep.has(id)));
}

/** Replaces the (first) test of a case with `replacement`, re-indented to where the old one was. */
export function replaceTest(path: string, content: string, caseId: string, replacement: string): string {
  const blocks = findTests(path, content).filter((b) => b.caseId === caseId).sort((a, b) => a.start - b.start);
  if (!blocks.length) throw new Error(`no test for ${caseId} in ${path}`);
  const [first, ...rest] = blocks;
  const lines = replacement.replace(/\s+$/, '').split('\n');
  const minIndent = Math.min(...lines.filter((l) => l.trim()).map((l) => /^\s*/.exec(l)![0].length));
  const body = lines.map((l, i) => (i === 0 ? '' : l.trim() ? first.indent : '') + l.slice(minIndent)).join('\n');
  let text = content;
  for (const b of rest.reverse()) text = text.slice(0, b.fullStart) + text.slice(b.end);
  return text.slice(0, first.start) + body + text.slice(first.end);
}

/** Marks the tests of these cases skipped, with the reason in a comment above each (and in pytest's skip reason). */
export function skipTests(path: string, content: string, reasons: Map<string, string>): string {
  const blocks = findTests(path, content).filter((b) => reasons.has(b.caseId)).sort((a, b) => b.start - a.start);
  let text = content;
  for (const b of blocks) {
    const reason = oneLine(reasons.get(b.caseId)!);
    if (isPython(path)) {
      text = `${text.slice(0, b.start)}# AMTP quarantine: ${reason}\n@pytest.mark.skip(reason=${pyString(`AMTP quarantine: ${reason}`)})\n${text.slice(b.start)}`;
    } else {
      const base = b.callee.split('.')[0];
      text = `${text.slice(0, b.start)}// AMTP quarantine: ${reason}\n${b.indent}${base}.skip${text.slice(b.calleeEnd)}`;
    }
  }
  if (isPython(path) && blocks.length && !/^import pytest\b/m.test(text)) text = `import pytest\n${text}`;
  return text;
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').replace(/\*\//g, '* /').trim().slice(0, 400);
}

function pyString(s: string): string {
  return JSON.stringify(s);
}

/** `test/ms.amtp.test.js` → `test/ms.amtp.quarantine.test.js`; `tests/test_x_amtp.py` → `tests/test_x_amtp_quarantine.py`. */
export function quarantinePath(path: string): string {
  if (isPython(path)) return path.replace(/\.py$/, '_quarantine.py');
  const m = /^(.*?)(\.(?:test|spec))(\.[^/]+)$/.exec(path);
  if (m) return `${m[1]}.quarantine${m[2]}${m[3]}`;
  return path.replace(/(\.[^./]+)$/, '.quarantine.test$1');
}
