// Statements and branches of a file, read from its syntax tree (the text V8 ran), and which of them a
// sequence reached, from the child's coverage segments: the goals the search's feedback and selection
// count (server/src/search/select.ts). A statement or branch arm is reached when the innermost V8 block
// count at its start is above zero; an arm with no code of its own (an `if` without `else`, the
// short-circuit of `a && b`, a default value not used) is reached when its parent ran more often than
// the code the arm skips: the counts tell what a set of spans cannot.
import type { EsNode, JsParser } from '../util/jsParser';
import { walk } from '../util/esTree';

/** `s`: a statement; `b`: a branch arm's first code; `e`: an implicit arm, reached when count(at) > count(skip). */
interface Probe {
  kind: 's' | 'b' | 'e';
  at: number;
  /** `e` only: the code the implicit arm skips */
  skip?: number;
}

export interface FileProbes {
  probes: Probe[];
  /** function ranges [start, end), for finding the function at a location and its open goals */
  functions: EsNode[];
  program: EsNode;
}

const STATEMENT = /Statement$|^VariableDeclaration$|^FunctionDeclaration$|^ClassDeclaration$/;
const FUNCTION = /^(FunctionDeclaration|FunctionExpression|ArrowFunctionExpression)$/;

function armsOf(n: EsNode, add: (p: Probe) => void): void {
  switch (n.type) {
    case 'IfStatement':
      add({ kind: 'b', at: n.consequent.start });
      if (n.alternate) add({ kind: 'b', at: n.alternate.start });
      else add({ kind: 'e', at: n.start, skip: n.consequent.start });
      break;
    case 'ConditionalExpression':
      add({ kind: 'b', at: n.consequent.start });
      add({ kind: 'b', at: n.alternate.start });
      break;
    case 'LogicalExpression':
      add({ kind: 'b', at: n.right.start });
      add({ kind: 'e', at: n.start, skip: n.right.start });
      break;
    case 'SwitchCase':
      add({ kind: 'b', at: n.consequent?.[0]?.start ?? n.start });
      break;
    case 'AssignmentPattern':
      add({ kind: 'b', at: n.right.start });
      break;
    case 'CatchClause':
      add({ kind: 'b', at: n.body.start });
      break;
  }
}

export function fileProbes(parser: JsParser, fileName: string, text: string): FileProbes {
  // The text V8 ran is JavaScript (a TypeScript source arrives compiled), so parse it as such.
  const { program } = parser.parse(fileName.replace(/\.[cm]?tsx?$/, '.js'), text);
  const seen = new Set<string>();
  const probes: Probe[] = [];
  const add = (p: Probe) => {
    const k = `${p.kind}${p.at}`;
    if (!seen.has(k)) {
      seen.add(k);
      probes.push(p);
    }
  };
  const functions: EsNode[] = [];
  walk(program, (n) => {
    if (STATEMENT.test(n.type) && n.type !== 'BlockStatement' && n.type !== 'EmptyStatement') add({ kind: 's', at: n.start });
    if (FUNCTION.test(n.type)) functions.push(n);
    armsOf(n, add);
  });
  probes.sort((a, b) => a.at - b.at || a.kind.localeCompare(b.kind));
  functions.sort((a, b) => a.start - b.start);
  return { probes, functions, program };
}

/** The innermost count at an offset, from segments sorted by start (absent: 0). */
export function countAt(segments: readonly [number, number, number][], at: number): number {
  let lo = 0;
  let hi = segments.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [s, e, c] = segments[mid];
    if (at < s) hi = mid - 1;
    else if (at >= e) lo = mid + 1;
    else return c;
  }
  return 0;
}

/** The goals (probe ids `file:kind@offset`) one run of segments reached in a file. */
export function reached(file: string, fp: FileProbes, segments: readonly [number, number, number][]): string[] {
  const out: string[] = [];
  for (const p of fp.probes) {
    const c = countAt(segments, p.at);
    if (c <= 0) continue;
    if (p.kind === 'e' ? c > countAt(segments, p.skip!) : true) out.push(`${file}:${p.kind}@${p.at}`);
  }
  return out;
}

/** 0-based line and column → offset. */
export function offsetOf(text: string, line: number, column: number): number {
  let at = 0;
  for (let l = 0; l < line; l++) {
    const nl = text.indexOf('\n', at);
    if (nl < 0) return text.length;
    at = nl + 1;
  }
  return at + column;
}

/** The innermost function whose range holds the offset (V8 places a function at its parameter list). */
export function functionAt(fp: FileProbes, at: number): EsNode | undefined {
  let best: EsNode | undefined;
  for (const f of fp.functions) {
    if (f.start > at) break;
    if (at < f.end && (!best || f.end - f.start < best.end - best.start)) best = f;
  }
  return best;
}
