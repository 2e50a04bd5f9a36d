// What an oracle adds around its main assertion (schemas/test-cases.schema.json): `checks`, asserted in
// order after it in the same test (an object's state, a callback's calls, a changed argument), and
// `temp_dir`, a temporary folder the test creates (with its files) before everything and removes
// after, in a `finally`, whatever the assertions found. Expected values of checks may be the value
// expressions AMTP writes for what it observed (`new Map([...])`, `new Date("…")`, `Buffer.from(…)`),
// besides the literals a document shows.
import type * as TS from 'typescript';
import type { Oracle } from '../contracts/types';
import { typescript } from '../util/typescript';
import { access, binary, call, declare, id, literalNode, statement, str } from './jsNodes';
import { parseExpression, type Rejected, type SnippetTarget } from './jsSnippet';
import { isStructured, parseLiteral } from './literals';

export interface CheckDialect {
  is(actual: TS.Expression, expected: TS.Expression): TS.Statement;
  deep(actual: TS.Expression, expected: TS.Expression): TS.Statement;
  nan(actual: TS.Expression): TS.Statement;
  ok(cond: TS.Expression): TS.Statement;
}

/**
 * The local names a test file binds node's fs, os and path to when one of its tests uses a temporary
 * folder. Bare names, not `node:fs`: jest before 27 resolves requires itself and fails on `node:`.
 */
export const TEMP_MODULES = [
  ['nodeFs', 'fs'],
  ['nodeOs', 'os'],
  ['nodePath', 'path'],
] as const;

const VALUE_CONSTRUCTORS = new Set(['Map', 'Set', 'Date', 'RegExp']);

/** An expression made only of literals and the value constructors AMTP writes for observed values. */
function isValueExpression(ts: typeof TS, n: TS.Node): boolean {
  if (ts.isStringLiteral(n) || ts.isNumericLiteral(n) || ts.isBigIntLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) return true;
  if (n.kind === ts.SyntaxKind.TrueKeyword || n.kind === ts.SyntaxKind.FalseKeyword || n.kind === ts.SyntaxKind.NullKeyword) return true;
  if (ts.isIdentifier(n)) return ['undefined', 'NaN', 'Infinity'].includes(n.text);
  if (ts.isPrefixUnaryExpression(n)) return n.operator === ts.SyntaxKind.MinusToken && isValueExpression(ts, n.operand);
  if (ts.isArrayLiteralExpression(n)) return n.elements.every((e) => isValueExpression(ts, e));
  if (ts.isObjectLiteralExpression(n))
    return n.properties.every(
      (p) => ts.isPropertyAssignment(p) && !ts.isComputedPropertyName(p.name) && isValueExpression(ts, p.initializer),
    );
  if (ts.isNewExpression(n))
    return (
      ts.isIdentifier(n.expression) &&
      VALUE_CONSTRUCTORS.has(n.expression.text) &&
      (n.arguments ?? []).every((a) => isValueExpression(ts, a))
    );
  if (ts.isCallExpression(n)) return isBufferFrom(ts, n) || isNullProtoObject(ts, n);
  return false;
}

/** `Buffer.from(…)` of values. */
function isBufferFrom(ts: typeof TS, n: TS.CallExpression): boolean {
  return (
    ts.isPropertyAccessExpression(n.expression) &&
    ts.isIdentifier(n.expression.expression) &&
    n.expression.expression.text === 'Buffer' &&
    n.expression.name.text === 'from' &&
    n.arguments.every((a) => isValueExpression(ts, a))
  );
}

/** `Object.assign(Object.create(null), { … })`: a null-prototype object (the search writes one so, server/src/search/values.ts). */
function isNullProtoObject(ts: typeof TS, n: TS.CallExpression): boolean {
  const isObjectCall = (c: TS.Node, name: string): c is TS.CallExpression =>
    ts.isCallExpression(c) &&
    ts.isPropertyAccessExpression(c.expression) &&
    ts.isIdentifier(c.expression.expression) &&
    c.expression.expression.text === 'Object' &&
    c.expression.name.text === name;
  const [target, source, ...rest] = n.arguments;
  return (
    isObjectCall(n, 'assign') &&
    !rest.length &&
    !!target &&
    isObjectCall(target, 'create') &&
    target.arguments.length === 1 &&
    target.arguments[0].kind === ts.SyntaxKind.NullKeyword &&
    !!source &&
    ts.isObjectLiteralExpression(source) &&
    isValueExpression(ts, source)
  );
}

/** The expected side of a comparison: a literal, or an observed value's expression; `deep` tells the comparison. */
export function expectedNode(
  text: string,
  field: string,
  target: SnippetTarget,
): { node: () => TS.Expression; deep: boolean; nan: boolean } | Rejected {
  const lit = parseLiteral(text);
  if (lit) return { node: () => literalNode(lit), deep: isStructured(lit), nan: lit.t === 'nan' };
  const parsed = parseExpression(field, text, target);
  if ('reason' in parsed) return parsed;
  const ts = typescript();
  const probe = parsed.make();
  if (!isValueExpression(ts, probe)) return { reason: `${field} '${text.slice(0, 60)}' is not a value the engineer can compare against` };
  const scalar = ts.isPrefixUnaryExpression(probe) || ts.isBigIntLiteral(probe);
  return { node: parsed.make, deep: !scalar, nan: false };
}

function throwsCheck(callExpr: TS.Expression, name: string, d: CheckDialect): TS.Statement {
  const ts = typescript();
  const f = ts.factory;
  const attempt = f.createTryStatement(
    f.createBlock([statement(callExpr)], true),
    f.createCatchClause('err', f.createBlock([statement(binary(id('thrown'), ts.SyntaxKind.EqualsToken, id('err')))], true)),
    undefined,
  );
  const named = call(access(f.createArrayLiteralExpression([access(id('thrown'), 'name')]), 'includes'), str(name));
  return f.createBlock([declare('let', 'thrown', f.createIdentifier('undefined')), attempt, d.ok(named)], true);
}

/** The statements of an oracle's checks, or why one cannot be written. */
export function checkStatements(
  o: Oracle,
  d: CheckDialect,
  target: SnippetTarget,
): { statements: TS.Statement[]; awaits: boolean } | Rejected {
  const statements: TS.Statement[] = [];
  let awaits = false;
  for (const [i, c] of (o.checks ?? []).entries()) {
    const parsed = parseExpression(`oracle.checks[${i}].call`, c.call, target);
    if ('reason' in parsed) return parsed;
    awaits ||= parsed.awaits;
    if (c.kind === 'throws') {
      statements.push(throwsCheck(parsed.make(), c.expected, d));
      continue;
    }
    const exp = expectedNode(c.expected, `oracle.checks[${i}].expected`, target);
    if ('reason' in exp) return exp;
    if (exp.nan) statements.push(d.nan(parsed.make()));
    else statements.push(c.kind === 'deep_equals' || exp.deep ? d.deep(parsed.make(), exp.node()) : d.is(parsed.make(), exp.node()));
  }
  return { statements, awaits };
}

/** The body inside a temporary folder: created (with its files) first, removed in a `finally`. */
export function inTempDir(o: Oracle, body: TS.Statement[]): TS.Statement[] {
  const dir = o.temp_dir;
  if (!dir) return body;
  const f = typescript().factory;
  const fsCall = (name: string, ...args: TS.Expression[]) => statement(call(access('nodeFs', name), ...args));
  const at = (p: string) => call(access('nodePath', 'join'), id(dir.name), str(p));
  const recursive = () => f.createObjectLiteralExpression([f.createPropertyAssignment('recursive', f.createTrue())]);
  const make = declare(
    'const',
    dir.name,
    call(access('nodeFs', 'mkdtempSync'), call(access('nodePath', 'join'), call(access('nodeOs', 'tmpdir')), str('amtp-'))),
  );
  const files = (dir.files ?? []).flatMap((file) => [
    ...(file.path.includes('/') ? [fsCall('mkdirSync', call(access('nodePath', 'dirname'), at(file.path)), recursive())] : []),
    fsCall('writeFileSync', at(file.path), str(file.content)),
  ]);
  const remove = fsCall(
    'rmSync',
    id(dir.name),
    f.createObjectLiteralExpression([
      f.createPropertyAssignment('recursive', f.createTrue()),
      f.createPropertyAssignment('force', f.createTrue()),
    ]),
  );
  return [make, f.createTryStatement(f.createBlock([...files, ...body], true), undefined, f.createBlock([remove], true))];
}
