// The argument lists of a function's documented calls, as seeds for characterization: `grade(91)`
// in an example gives [91]. Calls are found on the syntax tree oxc reads, statement by statement (a
// doctest's `>>> ` and `... ` prompts are dropped first, and Python's literal words read as Python's), and an argument
// counts only when it is a pure literal (frameworks/literals.ts): a variable or a call seeds nothing.
import { parseLiteral, type Literal, type LiteralLang } from '../frameworks/literals';
import { nodesWhere } from '../util/esTree';
import type { EsNode } from '../util/jsParser';
import { parseRecovering } from '../util/jsRecover';

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

function calleeName(e: EsNode): string | undefined {
  if (e.type === 'Identifier') return e.name;
  if (e.type === 'MemberExpression' && !e.computed && e.property.type === 'Identifier') return e.property.name;
  return undefined;
}

export function exampleArgs(name: string, examples: readonly string[], lang: LiteralLang): unknown[][] {
  const short = name.split('.').pop()!;
  const out: unknown[][] = [];
  for (const ex of examples) {
    const code = ex.replace(/^[ \t]*(?:>>>|\.\.\.) ?/gm, '');
    // .tsx: JavaScript with JSX that also reads type annotations, as examples in JSDoc often carry them
    for (const st of parseRecovering('example.tsx', code).statements)
      // a call the reader closed itself (`unclosed`) lacks arguments the example goes on to give
      for (const call of nodesWhere(st, (n) => n.type === 'CallExpression' && !n.unclosed && calleeName(n.callee) === short)) {
        const lits = (call.arguments as EsNode[]).map((a) => parseLiteral(code.slice(a.start, a.end), lang));
        if (lits.every((l): l is Literal => l !== undefined)) out.push(lits.map(valueOf));
      }
  }
  return out.slice(0, MAX_LISTS);
}
