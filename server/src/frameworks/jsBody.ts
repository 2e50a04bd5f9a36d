// Test bodies for JavaScript frameworks, built as syntax trees. Only the comparison differs between
// frameworks (expect vs node:assert), so bodies are written once against a small Dialect. Snippets
// (setup, call) are parsed here; one that does not parse is the case's reason not to be written.
import type * as TS from 'typescript';
import type { Oracle, OracleBinding, TestCase } from '../contracts/types';
import { typescript } from '../util/typescript';
import { access, binary, call, declare, id, literalNode, statement, str } from './jsNodes';
import { parseExpression, parseStatements, type Parsed, type Rejected, type SnippetTarget } from './jsSnippet';
import { checkStatements, expectedNode, inTempDir } from './jsChecks';
import { parseLiteral } from './literals';
import type { JsCaseBody } from './types';

export interface Dialect {
  is(actual: TS.Expression, expected: TS.Expression): TS.Statement;
  deep(actual: TS.Expression, expected: TS.Expression): TS.Statement;
  nan(actual: TS.Expression): TS.Statement;
  ok(cond: TS.Expression): TS.Statement;
}

const expect = (a: TS.Expression, matcher: string, ...args: TS.Expression[]) =>
  statement(call(access(call('expect', a), matcher), ...args));

export const EXPECT: Dialect = {
  is: (a, e) => expect(a, 'toBe', e),
  deep: (a, e) => expect(a, 'toEqual', e),
  nan: (a) => expect(a, 'toBeNaN'),
  ok: (c) => expect(c, 'toBe', typescript().factory.createTrue()),
};

export const ASSERT: Dialect = {
  is: (a, e) => statement(call(access('assert', 'strictEqual'), a, e)),
  deep: (a, e) => statement(call(access('assert', 'deepStrictEqual'), a, e)),
  nan: (a) => statement(call(access('assert', 'ok'), call(access('Number', 'isNaN'), a))),
  ok: (c) => statement(call(access('assert', 'ok'), c)),
};

const NO_SETUP: Parsed<TS.Statement[]> = { make: () => [], awaits: false };

export function jsBody(c: TestCase, d: Dialect, target: SnippetTarget, bindings: OracleBinding[]): JsCaseBody | Rejected {
  const main = mainBody(c, d, target, bindings);
  const o = c.oracle;
  if ('reason' in main || !o || o.language === 'python' || (!o.checks?.length && !o.temp_dir)) return main;
  const checks = checkStatements(o, d, target);
  if ('reason' in checks) return checks;
  return { ...main, statements: inTempDir(o, [...main.statements, ...checks.statements]), async: main.async || checks.awaits };
}

function mainBody(c: TestCase, d: Dialect, target: SnippetTarget, bindings: OracleBinding[]): JsCaseBody | Rejected {
  const o = c.oracle;
  if (!o)
    return { reason: 'no oracle: the documentation states no checkable result for this case, and the offline engineer never guesses one' };
  if (o.language === 'python') return { reason: 'the case targets Python code' };
  const badBinding = checkBindings(bindings, target);
  if (badBinding) return badBinding;
  const setup = o.setup?.trim() ? parseStatements('oracle.setup', o.setup, target) : NO_SETUP;
  if ('reason' in setup) return setup;
  if (o.property === 'order_independent') return sequenceBody(c, o, setup, d, target);
  if (!o.call) return { reason: 'the oracle has no call to evaluate' };
  const parsed = parseExpression('oracle.call', o.call, target);
  if ('reason' in parsed) return parsed;
  const f = typescript().factory;
  // An async target's documented result is the resolved value, so the call is awaited.
  const needsAwait = c.target.async === true && o.kind !== 'type' && o.kind !== 'exports' && !parsed.awaits;
  const async = needsAwait || parsed.awaits || setup.awaits;
  const value = () => (needsAwait ? f.createAwaitExpression(parsed.make()) : parsed.make());
  const ts = typescript();
  switch (o.kind) {
    case 'type': {
      const lit = o.expected ? parseLiteral(o.expected) : undefined;
      const statements = [
        ...setup.make(),
        declare('const', 'actual', value()),
        d.is(f.createTypeOfExpression(id('actual')), lit ? literalNode(lit) : str('function')),
      ];
      if (c.target.arity !== undefined && c.target.symbol_kind === 'function')
        statements.push(d.is(access('actual', 'length'), f.createNumericLiteral(c.target.arity)));
      return { language: 'javascript', statements, async };
    }
    case 'exports':
      return {
        language: 'javascript',
        statements: [...setup.make(), d.ok(binary(value(), ts.SyntaxKind.ExclamationEqualsEqualsToken, id('undefined')))],
        async,
      };
    case 'throws':
      return throwsBody(o, setup, async && !parsed.awaits ? () => f.createAwaitExpression(parsed.make()) : value, async, d, target);
    case 'equals':
    case 'deep_equals':
    case 'prints': {
      const cmp = compare(id('actual'), o.kind, o.expected, 'oracle.expected', d, target);
      if ('reason' in cmp) return cmp;
      const statements = [...setup.make(), declare('const', 'actual', value())];
      if (o.property === 'deterministic') statements.push(declare('const', 'again', value()), d.deep(id('again'), id('actual')));
      return { language: 'javascript', statements: [...statements, cmp.statement], async };
    }
    default:
      return { reason: `oracle kind '${o.kind}' has no offline renderer` };
  }
}

/** order_independent: documented calls run in sequence, each compared with its documented result. */
function sequenceBody(c: TestCase, o: Oracle, setup: Parsed<TS.Statement[]>, d: Dialect, target: SnippetTarget): JsCaseBody | Rejected {
  const f = typescript().factory;
  const statements = setup.make();
  let async = setup.awaits;
  for (const [i, s] of (o.sequence ?? []).entries()) {
    const parsed = parseExpression(`oracle.sequence[${i}].call`, s.call, target);
    if ('reason' in parsed) return parsed;
    const cmp = compare(id(`r${i}`), s.kind, s.expected, `oracle.sequence[${i}].expected`, d, target);
    if ('reason' in cmp) return cmp;
    const needsAwait = c.target.async === true && !parsed.awaits;
    async ||= needsAwait || parsed.awaits;
    statements.push(declare('const', `r${i}`, needsAwait ? f.createAwaitExpression(parsed.make()) : parsed.make()), cmp.statement);
  }
  return { language: 'javascript', statements, async };
}

/**
 * A printed result compares by its text. Any other documented result must be a literal (see
 * literals.ts); text that does not even parse says where, text that parses but is not a literal
 * (`{ a: [Object] }` is node's inspect output, not an object) says so.
 */
function compare(
  actual: TS.Expression,
  kind: Oracle['kind'],
  expected: string | undefined,
  field: string,
  d: Dialect,
  target: SnippetTarget,
): { statement: TS.Statement } | Rejected {
  if (expected === undefined) return { reason: 'the oracle has no expected value' };
  if (kind === 'prints') return { statement: d.is(call('String', actual), str(expected)) };
  if (!parseLiteral(expected)) {
    const parsed = parseExpression(field, expected, target);
    if ('reason' in parsed) return parsed;
  }
  const exp = expectedNode(expected, field, target);
  if ('reason' in exp) return { reason: `documented result '${expected.slice(0, 60)}' is not a literal the engineer can compare against` };
  if (exp.nan) return { statement: d.nan(actual) };
  return { statement: exp.deep ? d.deep(actual, exp.node()) : d.is(actual, exp.node()) };
}

function throwsBody(
  o: Oracle,
  setup: Parsed<TS.Statement[]>,
  value: () => TS.Expression,
  async: boolean,
  d: Dialect,
  target: SnippetTarget,
): JsCaseBody {
  const ts = typescript();
  const f = ts.factory;
  const error = o.error ?? 'Error';
  // SingleLine keeps `} catch (err) {` on one line; the blocks stay multi-line.
  const attempt = ts.setEmitFlags(
    f.createTryStatement(
      f.createBlock([statement(value())], true),
      f.createCatchClause('err', f.createBlock([statement(binary(id('thrown'), ts.SyntaxKind.EqualsToken, id('err')))], true)),
      undefined,
    ),
    ts.EmitFlags.SingleLine,
  );
  const statements = [
    ...setup.make(),
    declare('let', 'thrown', undefined, target.typescript ? f.createKeywordTypeNode(ts.SyntaxKind.UnknownKeyword) : undefined),
    attempt,
    d.ok(binary(id('thrown'), ts.SyntaxKind.ExclamationEqualsEqualsToken, id('undefined'))),
  ];
  if (error !== 'Error') {
    // Compare names, not constructors: a library's own error class is not importable by name, and
    // jest runs test code in its own realm where `instanceof TypeError` can fail across contexts.
    const thrown = () =>
      target.typescript ? f.createParenthesizedExpression(f.createAsExpression(id('thrown'), errorShape(ts))) : id('thrown');
    const names = f.createArrayLiteralExpression([
      access(thrown(), 'name'),
      f.createPropertyAccessChain(access(thrown(), 'constructor'), f.createToken(ts.SyntaxKind.QuestionDotToken), 'name'),
    ]);
    statements.push(d.ok(call(access(names, 'includes'), str(error))));
  }
  const message = o.expected !== undefined ? parseLiteral(o.expected) : undefined;
  if (message?.t === 'string') {
    const thrown = target.typescript
      ? f.createParenthesizedExpression(f.createAsExpression(id('thrown'), errorShape(ts, true)))
      : id('thrown');
    statements.push(d.is(access(thrown, 'message'), literalNode(message)));
  }
  return { language: 'javascript', statements, async };
}

/** `{ name?: string; constructor?: { name?: string } }` (with `message?: string` when asked), on one line. */
function errorShape(ts: typeof TS, withMessage = false): TS.TypeNode {
  const f = ts.factory;
  const optional = (name: string, type: TS.TypeNode) =>
    f.createPropertySignature(undefined, name, f.createToken(ts.SyntaxKind.QuestionToken), type);
  const line = (members: TS.TypeElement[]) => ts.setEmitFlags(f.createTypeLiteralNode(members), ts.EmitFlags.SingleLine);
  return line([
    optional('name', f.createKeywordTypeNode(ts.SyntaxKind.StringKeyword)),
    ...(withMessage ? [optional('message', f.createKeywordTypeNode(ts.SyntaxKind.StringKeyword))] : []),
    optional('constructor', line([optional('name', f.createKeywordTypeNode(ts.SyntaxKind.StringKeyword))])),
  ]);
}

/** A binding's names go into import/require statements: each must be a name there, not a reserved word or code. */
export function checkBindings(bindings: OracleBinding[], target: SnippetTarget): Rejected | undefined {
  for (const [i, b] of bindings.entries()) {
    // `let x;` in a module (strict code) refuses every reserved word a binding cannot use.
    if (!identifierName(b.local) || 'reason' in parseStatements(`oracle.bindings[${i}].local`, `let ${b.local};`, target)) {
      return { reason: `oracle.bindings[${i}].local '${b.local.slice(0, 40)}' is not a name a test file can bind` };
    }
    if (b.name !== undefined && !identifierName(b.name))
      return { reason: `oracle.bindings[${i}].name '${b.name.slice(0, 40)}' is not an export name` };
  }
  return undefined;
}

let scanner: TS.Scanner | undefined;

/** One identifier or keyword token and nothing else (an IdentifierName: `default` is an export name). */
function identifierName(text: string): boolean {
  const ts = typescript();
  scanner ??= ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard);
  scanner.setText(text);
  const kind = scanner.scan();
  const name = kind === ts.SyntaxKind.Identifier || (kind >= ts.SyntaxKind.FirstKeyword && kind <= ts.SyntaxKind.LastKeyword);
  return name && scanner.scan() === ts.SyntaxKind.EndOfFileToken;
}
