// Branches as istanbul counts them (nyc), read from the syntax tree: the two arms of an `if` (an
// implicit `else` included) and of `a ? b : c`, every leaf of a `&&`/`||`/`??` chain, every clause of
// a `switch`. V8's own branch ranges (v8-to-istanbul's `b`) are blocks whose count differs from their
// parent's, a different unit: they read far higher than nyc on the same run. An arm is covered when
// the code at its start ran (the innermost V8 range there had a count); an implicit `else` when the
// `if` ran more often than its consequent. Default parameter values, which istanbul also counts, get
// no V8 range of their own and are not counted.
import type * as TS from 'typescript';
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

const LOGICAL = new Set(['&&', '||', '??']);

/** The branches of a parsed file, in source order. */
export function branchesOf(ts: typeof TS, sf: TS.SourceFile, at: (offset: number) => Pos): Branch[] {
  const out: Branch[] = [];
  const loc = (n: TS.Node): Loc => ({ start: at(n.getStart(sf)), end: at(n.getEnd()) });
  const arm = (n: TS.Node): Arm => ({ start: n.getStart(sf), loc: loc(n) });
  const isLogical = (n: TS.Node): n is TS.BinaryExpression =>
    ts.isBinaryExpression(n) && LOGICAL.has(ts.tokenToString(n.operatorToken.kind) ?? '');
  const leaves = (n: TS.Expression): TS.Expression[] => {
    const e = ts.isParenthesizedExpression(n) && isLogical(n.expression) ? n.expression : n;
    return isLogical(e) ? [...leaves(e.left), ...leaves(e.right)] : [n];
  };
  const visit = (n: TS.Node): void => {
    if (ts.isIfStatement(n)) {
      const end = at(n.getEnd());
      const implicit: Arm = {
        start: n.getEnd(),
        loc: { start: end, end },
        elseOf: { ifStart: n.getStart(sf), thenStart: n.thenStatement.getStart(sf) },
      };
      out.push({ type: 'if', loc: loc(n), arms: [arm(n.thenStatement), n.elseStatement ? arm(n.elseStatement) : implicit] });
    } else if (ts.isConditionalExpression(n)) out.push({ type: 'cond-expr', loc: loc(n), arms: [arm(n.whenTrue), arm(n.whenFalse)] });
    else if (isLogical(n) && !(n.parent && (isLogical(n.parent) || (ts.isParenthesizedExpression(n.parent) && isLogical(n.parent.parent)))))
      out.push({ type: 'binary-expr', loc: loc(n), arms: leaves(n).map(arm) });
    else if (ts.isSwitchStatement(n)) out.push({ type: 'switch', loc: loc(n), arms: n.caseBlock.clauses.map(arm) });
    ts.forEachChild(n, visit);
  };
  visit(sf);
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
