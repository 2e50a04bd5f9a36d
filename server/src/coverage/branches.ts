// Branches as istanbul counts them (nyc), read from the syntax tree (oxc's ESTree): the two arms of an `if` (an
// implicit `else` included) and of `a ? b : c`, every leaf of a `&&`/`||`/`??` chain, every clause of
// a `switch`. V8's own branch ranges (v8-to-istanbul's `b`) are blocks whose count differs from their
// parent's, a different unit: they read far higher than nyc on the same run. An arm is covered when
// the code at its start ran (the innermost V8 range there had a count); an implicit `else` when the
// `if` ran more often than its consequent. Default parameter values, which istanbul also counts, get
// no V8 range of their own and are not counted.
import { walk } from '../util/esTree';
import type { EsNode } from '../util/jsParser';
import type { IstanbulFile } from './units';

interface Pos {
  line: number;
  column: number;
}
interface Loc {
  start: Pos;
  end: Pos;
}
interface Arm {
  start: number;
  loc: Loc;
  /** an implicit `else`: taken as often as the `if` ran minus its consequent */
  elseOf?: { ifStart: number; thenStart: number };
}
export interface Branch {
  type: 'if' | 'cond-expr' | 'binary-expr' | 'switch';
  loc: Loc;
  arms: Arm[];
}

/** The branches of a parsed file (its parenthesized expressions kept), in source order. */
export function branchesOf(program: EsNode, at: (offset: number) => Pos): Branch[] {
  const found: { node: EsNode; branch: Branch }[] = [];
  const loc = (n: EsNode): Loc => ({ start: at(n.start), end: at(n.end) });
  const arm = (n: EsNode): Arm => ({ start: n.start, loc: loc(n) });
  // A `&&`/`||`/`??` inside another, bare or in one pair of parentheses, is part of the outer's chain.
  const chained = new Set<EsNode>();
  walk(program, (n) => {
    let branch: Branch | undefined;
    if (n.type === 'IfStatement') {
      const end = at(n.end);
      const implicit: Arm = { start: n.end, loc: { start: end, end }, elseOf: { ifStart: n.start, thenStart: n.consequent.start } };
      branch = { type: 'if', loc: loc(n), arms: [arm(n.consequent), n.alternate ? arm(n.alternate) : implicit] };
    } else if (n.type === 'ConditionalExpression') branch = { type: 'cond-expr', loc: loc(n), arms: [arm(n.consequent), arm(n.alternate)] };
    else if (n.type === 'SwitchStatement') branch = { type: 'switch', loc: loc(n), arms: n.cases.map(arm) };
    else if (n.type === 'LogicalExpression') {
      for (const side of [n.left, n.right]) {
        const inner = side.type === 'ParenthesizedExpression' ? side.expression : side;
        if (inner.type === 'LogicalExpression') chained.add(inner);
      }
      if (!chained.has(n)) branch = { type: 'binary-expr', loc: loc(n), arms: leaves(n).map(arm) };
    }
    if (branch) found.push({ node: n, branch });
  });
  // A walk in source order meets an outer branch before one that starts with it.
  found.sort((a, b) => a.node.start - b.node.start || b.node.end - a.node.end);
  return found.map((f) => f.branch);
}

/** The operands of a chain, left to right, through one pair of parentheses around an inner chain. */
function leaves(chain: EsNode): EsNode[] {
  const out: EsNode[] = [];
  const stack = [chain];
  while (stack.length) {
    const n = stack.pop()!;
    const e = n.type === 'ParenthesizedExpression' && n.expression.type === 'LogicalExpression' ? n.expression : n;
    if (e.type === 'LogicalExpression') stack.push(e.right, e.left);
    else out.push(n);
  }
  return out;
}

/** The file's branches re-read from the syntax tree, each arm's count from `countAt` (a V8 range count). */
export function withSyntaxBranches(d: IstanbulFile, branches: Branch[], countAt: (offset: number) => number): IstanbulFile {
  const branchMap: Record<string, { type: string; loc: Loc; locations: Loc[] }> = {};
  const b: IstanbulFile['b'] = {};
  branches.forEach((br, i) => {
    branchMap[`${i}`] = { type: br.type, loc: br.loc, locations: br.arms.map((a) => a.loc) };
    b[`${i}`] = br.arms.map((a) => Math.max(0, a.elseOf ? countAt(a.elseOf.ifStart) - countAt(a.elseOf.thenStart) : countAt(a.start)));
  });
  return { ...d, branchMap, b } as IstanbulFile;
}
