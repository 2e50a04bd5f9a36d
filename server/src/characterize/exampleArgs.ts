// The argument lists of a function's documented calls, as seeds for characterization: `grade(91)`
// in an example gives [91]. Calls are found on TypeScript's syntax tree (a doctest's `>>> ` and
// `... ` prompts are dropped first, and Python's literal words read as Python's), and an argument
// counts only when it is a pure literal (frameworks/literals.ts): a variable or a call seeds nothing.
import type * as TS from 'typescript';
import { parseLiteral, type Literal, type LiteralLang } from '../frameworks/literals';
import { typescript } from '../util/typescript';

const MAX_LISTS = 10;

function valueOf(lit: Literal): unknown {
  switch (lit.t) {
    case 'number':
    case 'string':
    case 'bool':
      return lit.v;
    case 'bigint':
      return BigInt(lit.src.replace(/n$/, ''));
    case 'null':
      return null;
    case 'undefined':
      return undefined;
    case 'nan':
      return NaN;
    case 'array':
      return lit.items.map(valueOf);
    case 'object':
      return Object.fromEntries(lit.entries.map(([k, v]) => [String(valueOf(k)), valueOf(v)]));
  }
}

function calleeName(ts: typeof TS, e: TS.Expression): string | undefined {
  if (ts.isIdentifier(e)) return e.text;
  if (ts.isPropertyAccessExpression(e)) return e.name.text;
  return undefined;
}

export function exampleArgs(name: string, examples: readonly string[], lang: LiteralLang): unknown[][] {
  const ts = typescript();
  const short = name.split('.').pop()!;
  const out: unknown[][] = [];
  for (const ex of examples) {
    const code = ex.replace(/^[ \t]*(?:>>>|\.\.\.) ?/gm, '');
    const sf = ts.createSourceFile('example.js', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
    const visit = (n: TS.Node): void => {
      if (ts.isCallExpression(n) && calleeName(ts, n.expression) === short) {
        const lits = n.arguments.map((a) => parseLiteral(a.getText(sf), lang));
        if (lits.every((l): l is Literal => l !== undefined)) out.push(lits.map(valueOf));
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return out.slice(0, MAX_LISTS);
}
