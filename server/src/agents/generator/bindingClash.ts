// One test file holds the cases of one module, so one local name must bind one thing there. Batches
// plan a module's symbols apart: colord's entry exports a function `colord`, and the batch that only
// saw `Colord` named the module value `colord` too (`colord.Colord`), while the README cases import
// `{ colord }`. The README's text must stay as written, so the module value's cases are renamed.
import type * as TS from 'typescript';
import type { OracleBinding, TestCase } from '../../contracts/types';
import { typescript } from '../../util/typescript';

const MODULE_VALUE = new Set<OracleBinding['import']>(['module', 'namespace', 'default']);

export function separateBindings(cases: TestCase[]): TestCase[] {
  const namedLocals = new Map<string, Set<string>>();
  for (const c of cases) {
    if (c.oracle?.language === 'python') continue;
    for (const b of c.oracle?.bindings ?? []) {
      if (b.import !== 'named') continue;
      if (!namedLocals.has(c.target.file)) namedLocals.set(c.target.file, new Set());
      namedLocals.get(c.target.file)!.add(b.local);
    }
  }
  return cases.map((c) => {
    const named = namedLocals.get(c.target.file);
    const o = c.oracle;
    const clash = named && o?.bindings?.find((b) => MODULE_VALUE.has(b.import) && named.has(b.local));
    if (!o || !clash) return c;
    const to = `${clash.local}Module`;
    return {
      ...c,
      oracle: {
        ...o,
        bindings: o.bindings!.map((b) => (b === clash ? { ...b, local: to } : b)),
        ...(o.call !== undefined ? { call: renamed(o.call, clash.local, to) } : {}),
        ...(o.setup !== undefined ? { setup: renamed(o.setup, clash.local, to) } : {}),
      },
    };
  });
}

/** `code` with each reference to the variable `from` (not a property or key of that name) renamed. */
export function renamed(code: string, from: string, to: string): string {
  const ts = typescript();
  const sf = ts.createSourceFile('case.ts', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const at: [number, string][] = [];
  const visit = (n: TS.Node): void => {
    if (ts.isIdentifier(n) && n.text === from && isReference(ts, n))
      // `{ colord }` keeps its key: `{ colord: colordModule }`
      at.push([n.getStart(sf), ts.isShorthandPropertyAssignment(n.parent) ? `${from}: ${to}` : to]);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  let out = code;
  for (const [pos, text] of at.reverse()) out = out.slice(0, pos) + text + out.slice(pos + from.length);
  return out;
}

function isReference(ts: typeof TS, id: TS.Identifier): boolean {
  const p = id.parent;
  if (ts.isPropertyAccessExpression(p) && p.name === id) return false;
  if ((ts.isPropertyAssignment(p) || ts.isMethodDeclaration(p) || ts.isPropertyDeclaration(p)) && p.name === id) return false;
  return true;
}
