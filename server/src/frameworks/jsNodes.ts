// Small builders over ts.factory for the generated tests, and the printer that turns them into text.
import type * as TS from 'typescript';
import { typescript } from '../util/typescript';
import type { Literal } from './literals';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * A single-quoted string literal. Non-ASCII text stays readable (no \u escapes), except a lone
 * surrogate, which UTF-8 cannot hold: then the printer escapes it, so the value survives the file.
 */
export function str(text: string, singleQuote = true): TS.StringLiteral {
  const ts = typescript();
  const node = ts.factory.createStringLiteral(text, singleQuote);
  return LONE_SURROGATE.test(text) ? node : ts.setEmitFlags(node, ts.EmitFlags.NoAsciiEscaping);
}

export function id(name: string): TS.Identifier {
  return typescript().factory.createIdentifier(name);
}

export function access(object: TS.Expression | string, ...names: string[]): TS.Expression {
  const f = typescript().factory;
  return names.reduce<TS.Expression>((o, n) => f.createPropertyAccessExpression(o, n), typeof object === 'string' ? id(object) : object);
}

export function call(callee: TS.Expression | string, ...args: TS.Expression[]): TS.CallExpression {
  return typescript().factory.createCallExpression(typeof callee === 'string' ? id(callee) : callee, undefined, args);
}

export function statement(e: TS.Expression): TS.Statement {
  return typescript().factory.createExpressionStatement(e);
}

/** `const name = init;` (or `let name: type;` when there is no initializer). */
export function declare(
  kind: 'const' | 'let',
  name: string | TS.BindingName,
  init?: TS.Expression,
  type?: TS.TypeNode,
): TS.VariableStatement {
  const ts = typescript();
  const f = ts.factory;
  const decl = f.createVariableDeclaration(name, undefined, type, init);
  return f.createVariableStatement(
    undefined,
    f.createVariableDeclarationList([decl], kind === 'const' ? ts.NodeFlags.Const : ts.NodeFlags.Let),
  );
}

/** `() => { … }`, async when the body awaits. */
/** `(param) => { body }` (ava and node-tap tests take their assertion object `t`). */
export function arrow(body: TS.Statement[], async: boolean, param?: string): TS.ArrowFunction {
  const ts = typescript();
  const f = ts.factory;
  const mods = async ? [f.createModifier(ts.SyntaxKind.AsyncKeyword)] : undefined;
  const params = param ? [f.createParameterDeclaration(undefined, undefined, param)] : [];
  return f.createArrowFunction(
    mods,
    undefined,
    params,
    undefined,
    f.createToken(ts.SyntaxKind.EqualsGreaterThanToken),
    f.createBlock(body, true),
  );
}

export function binary(left: TS.Expression, op: TS.BinaryOperator, right: TS.Expression): TS.Expression {
  return typescript().factory.createBinaryExpression(left, op, right);
}

/** The expression for a documented literal (see literals.ts): strings re-quoted, objects with quoted keys. */
export function literalNode(lit: Literal): TS.Expression {
  const ts = typescript();
  const f = ts.factory;
  switch (lit.t) {
    case 'number':
      if (Number.isNaN(lit.v)) return id('NaN');
      if (lit.v === Infinity || lit.v === -Infinity)
        return lit.v < 0 ? f.createPrefixUnaryExpression(ts.SyntaxKind.MinusToken, id('Infinity')) : id('Infinity');
      if (lit.v < 0 || Object.is(lit.v, -0))
        return f.createPrefixUnaryExpression(ts.SyntaxKind.MinusToken, f.createNumericLiteral(String(-lit.v)));
      return f.createNumericLiteral(String(lit.v));
    case 'bigint':
      return lit.src.startsWith('-')
        ? f.createPrefixUnaryExpression(ts.SyntaxKind.MinusToken, f.createBigIntLiteral(lit.src.slice(1)))
        : f.createBigIntLiteral(lit.src.replace(/^\+/, ''));
    case 'string':
      return str(lit.v);
    case 'bool':
      return lit.v ? f.createTrue() : f.createFalse();
    case 'null':
      return f.createNull();
    case 'undefined':
      return id('undefined');
    case 'nan':
      return id('NaN');
    case 'array':
      return f.createArrayLiteralExpression(lit.items.map(literalNode), false);
    case 'object':
      return f.createObjectLiteralExpression(
        lit.entries.map(([k, v]) =>
          f.createPropertyAssignment(str(k.t === 'string' ? k.v : printExpression(literalNode(k))), literalNode(v)),
        ),
        false,
      );
  }
}

/**
 * Prints statements as a file: the TypeScript printer, then two layout rules it has no option for:
 * two-space indentation (it indents by four) and a blank line before each node `blankBefore` names.
 * Both act on line starts outside template literals, so a multi-line template keeps its text.
 */
export function print(statements: TS.Statement[], typescriptFile: boolean, blankBefore?: (sf: TS.SourceFile) => TS.Node[]): string {
  const ts = typescript();
  const scratch = emptyFile(typescriptFile);
  const text = printer().printList(ts.ListFormat.MultiLine, ts.factory.createNodeArray(statements), scratch);
  const sf = ts.createSourceFile(
    scratch.fileName,
    text,
    ts.ScriptTarget.Latest,
    true,
    typescriptFile ? ts.ScriptKind.TS : ts.ScriptKind.JS,
  );
  const verbatim = templateRanges(ts, sf);
  const blank = new Set((blankBefore?.(sf) ?? []).map((n) => lineStart(text, n.getStart(sf))));
  const out: string[] = [];
  let at = 0;
  for (const line of text.split('\n')) {
    if (blank.has(at)) out.push('');
    const inside = verbatim.some(([s, e]) => s < at && at < e);
    const indent = inside ? 0 : /^ */.exec(line)![0].length;
    out.push(inside ? line : ' '.repeat(Math.ceil(indent / 2)) + line.slice(indent));
    at += line.length + 1;
  }
  return out.join('\n');
}

/** One expression as source text (no layout: it is one line unless it holds a multi-line template). */
export function printExpression(e: TS.Expression): string {
  return printer().printNode(typescript().EmitHint.Expression, e, emptyFile(false));
}

let cached: { printer: TS.Printer; files: Record<'js' | 'ts', TS.SourceFile> } | undefined;

function printer(): TS.Printer {
  return (cached ??= makePrinter()).printer;
}

function emptyFile(typescriptFile: boolean): TS.SourceFile {
  return (cached ??= makePrinter()).files[typescriptFile ? 'ts' : 'js'];
}

function makePrinter(): NonNullable<typeof cached> {
  const ts = typescript();
  const file = (kind: 'js' | 'ts') =>
    ts.createSourceFile(`/x.${kind}`, '', ts.ScriptTarget.Latest, false, kind === 'ts' ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  return { printer: ts.createPrinter({ newLine: ts.NewLineKind.LineFeed }), files: { js: file('js'), ts: file('ts') } };
}

function lineStart(text: string, pos: number): number {
  return text.lastIndexOf('\n', pos - 1) + 1;
}

/** [start, end) of every template literal: the lines that begin inside one are part of its value. */
function templateRanges(ts: typeof TS, sf: TS.SourceFile): [number, number][] {
  const out: [number, number][] = [];
  const visit = (n: TS.Node): void => {
    if (ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateExpression(n) || ts.isTaggedTemplateExpression(n))
      out.push([n.getStart(sf), n.end]);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}
