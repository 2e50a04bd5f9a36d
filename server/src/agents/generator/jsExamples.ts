// Turns a JS/TS docs snippet into documented examples: a call, the statements it needs before it,
// and the result the docs show. Read from the syntax tree oxc reads (jsStatements.ts). Forms:
//   f(x) //=> v      f(x); // v      f(x)\n// => v      const y = f(x) // v
//   console.log(f(x)) // v           f(x) === v;        f(x) // throws TypeError
// A call whose result is not shown, or that cannot be isolated, is skipped with the reason.
import type { OracleBinding } from '../../contracts/types';
import { parseLiteral } from '../../frameworks/literals';
import { unexported } from '../../util/esTree';
import { jsParser, type EsNode } from '../../util/jsParser';
import {
  documentedError,
  isPrintedToken,
  stripResultMarker,
  withoutTrailingProse,
  type DocExample,
  type ParsedSnippet,
  type ResultText,
} from './examples';
import { withoutNamespaces } from '../crawler/namespaceAliases';
import { importOf } from './jsImports';
import { SetupList } from './setupList';
import { splitStatements, textOf, type SnippetItem, type SnippetSource, type Statement } from './jsStatements';

/** What earlier README blocks bound, carried into the later ones in order (a README is read top to bottom). */
export interface SnippetContext {
  imports: OracleBinding[];
  /** the specifier each import binding came from, by its local name */
  from: Map<string, string>;
  setup: SetupList;
  /** namespaces the document calls exports through without binding them (`d3` of `d3.min(…)`) */
  namespaces?: Set<string>;
}

export function newSnippetContext(): SnippetContext {
  return { imports: [], from: new Map(), setup: new SetupList() };
}

/**
 * @param ownSpecifiers module specifiers that mean "the package under test" (`ms`, `./index.js`)
 * @param context bindings of earlier blocks of the same document; updated with this block's
 */
export function parseJsSnippet(snippet: string, ownSpecifiers: string[], context: SnippetContext = newSnippetContext()): ParsedSnippet {
  // `d3.min(x)` through an unbound namespace is a call of the export `min` (agents/crawler/namespaceAliases.ts).
  const items = splitStatements(context.namespaces ? withoutNamespaces(snippet, context.namespaces) : snippet);
  const examples: DocExample[] = [];
  const skipped: ParsedSnippet['skipped'] = [];
  const setup = context.setup.fork();
  let foreignImport: string | undefined;

  for (let k = 0; k < items.length; k++) {
    const item = items[k];
    if (item.code === undefined) continue;
    const stmt = item as Statement;
    if (stmt.broken) {
      if (resultFor(stmt, items[k + 1])) skipped.push({ line: stmt.line, reason: 'the statement does not parse as JavaScript/TypeScript' });
      continue;
    }
    const own = importOf(stmt.node, ownSpecifiers);
    if (own) {
      if (!own.own) foreignImport = own.specifier;
      for (const b of own.bindings) {
        context.imports = [...context.imports.filter((x) => x.local !== b.local), b];
        context.from.set(b.local, own.specifier);
        setup.forget(b.local);
      }
      continue;
    }
    const result = boundResult(resultFor(stmt, items[k + 1]), setup);
    if (result?.fromNextLine) k++;
    const shown = result ? exampleOf(stmt, result) : undefined;
    if (result && !shown) skipped.push({ line: stmt.line, reason: 'documented result follows a statement, not an expression' });
    else if (shown && foreignImport)
      skipped.push({ line: stmt.line, reason: `snippet imports '${foreignImport}', which a test cannot reproduce inside one test` });
    else if (shown && 'reason' in shown) skipped.push({ line: stmt.line, reason: shown.reason });
    else if (shown)
      examples.push({
        ...shown,
        setup: setup.neededBy(shown.call),
        line: stmt.line,
        imports: [...context.imports],
        importedFrom: Object.fromEntries(context.from),
      });
    // A declaration with a shown value (`const y = f(x) // 4`) is still needed by the statements after
    // it; a documented call may change an object later calls read (`queue.pop(); // returns 5`).
    if (!shown || isDeclaration(stmt.node)) setup.add(stmt.code, stmt.node);
    else if (!('reason' in shown) && shown.outcome !== 'throws') setup.add(stmt.code, stmt.node, true);
  }
  context.setup.adoptDeclarations(setup);
  return { examples, skipped };
}

type Shown = { text: string; marked: boolean; fromNextLine: boolean };
type Found = Omit<DocExample, 'setup' | 'line' | 'imports'> | { reason: string };

function resultFor(stmt: Statement, next: SnippetItem | undefined): Shown | undefined {
  // What console.log shows is printed text even without a marker (`console.log(f(x)) // 1.34 kB`).
  const logs = /^console\.(?:log|info)\(/.test(stmt.code);
  if (stmt.comment) {
    const r = withoutProse(withoutStatementEnd(stripResultMarker(stmt.comment)));
    if (looksLikeResult(r.text, r.marked || logs)) return { ...r, marked: r.marked || logs, fromNextLine: false };
  }
  // `bytes(1024);\n// output: '1KB'`: a comment line right after the statement, but only when it
  // reads as a result, so prose comments that introduce the next call are not mistaken for one.
  if (next && next.code === undefined && next.line === stmt.line + stmt.code.split('\n').length) {
    const r = withoutProse(withoutStatementEnd(stripResultMarker(next.comment)));
    if ((r.marked || parseLiteral(r.text) !== undefined || documentedError(r.text)) && looksLikeResult(r.text, r.marked))
      return { ...r, fromNextLine: true };
  }
  // `f(x) === 'v';`: the snippet states the result itself.
  const eq = equalityOf(stmt);
  return eq ? { text: eq.expected, marked: true, fromNextLine: false } : undefined;
}

/**
 * `const output = {…}` earlier in the document, then `fn(input) // => output`: the shown result is
 * the literal bound to that name, however many lines it spans.
 */
function boundResult(shown: Shown | undefined, setup: SetupList): Shown | undefined {
  if (!shown || !/^[A-Za-z_$][\w$]*$/.test(shown.text)) return shown;
  const literal = setup.literalOf(shown.text);
  return literal === undefined ? shown : { ...shown, text: literal, marked: true };
}

/**
 * Docs often write the shown result as a statement of its own (`// => "Foo Bar";`). When the text
 * parses as exactly one expression statement, the result is that expression, without its `;`.
 */
function withoutStatementEnd(r: ResultText): ResultText {
  if (!r.text.endsWith(';')) return r;
  const { program, errors } = jsParser().parse('result.ts', r.text, { preserveParens: true });
  const [only] = program.body as EsNode[];
  if (errors.length || program.body.length !== 1 || only.type !== 'ExpressionStatement') return r;
  return { ...r, text: r.text.slice(only.expression.start, only.expression.end) };
}

/** `//=> false (extra arguments ignored)`: the prose after the value is not part of it (examples.ts). */
function withoutProse(r: ResultText): ResultText {
  const value = withoutTrailingProse(r.text);
  return value === undefined ? r : { ...r, text: value };
}

function looksLikeResult(text: string, marked: boolean): boolean {
  return parseLiteral(text) !== undefined || documentedError(text) !== undefined || isPrintedToken(text, marked);
}

/** `call === literal` (or `==`, either side) as a statement of its own. */
function equalityOf({ node, source }: Statement): { call: string; expected: string } | undefined {
  if (node.type !== 'ExpressionStatement' || node.expression.type !== 'BinaryExpression') return undefined;
  const e = node.expression;
  if (e.operator !== '===' && e.operator !== '==') return undefined;
  const [l, r] = [textOf(source, e.left), textOf(source, e.right)];
  if (parseLiteral(r) !== undefined && parseLiteral(l) === undefined) return { call: l, expected: r };
  if (parseLiteral(l) !== undefined && parseLiteral(r) === undefined) return { call: r, expected: l };
  return undefined;
}

/** The documented expression of a statement and what the docs say it gives. */
function exampleOf(stmt: Statement, shown: Shown): Found | undefined {
  const eq = equalityOf(stmt);
  if (eq) return { call: eq.call, outcome: 'value', expected: eq.expected };
  const node = unexported(stmt.node);
  let expr: EsNode | undefined;
  if (node.type === 'ExpressionStatement') expr = node.expression;
  else if (node.type === 'VariableDeclaration' && node.declarations.length === 1) expr = node.declarations[0].init ?? undefined;
  if (!expr) return undefined;
  if (expr.type === 'CallExpression' && /^console\.(?:log|info)$/.test(rawText(stmt.source, expr.callee))) {
    if (expr.arguments.length !== 1) return { reason: 'console.log with several arguments prints a joined line' };
    return classify(textOf(stmt.source, expr.arguments[0]), shown, true);
  }
  return classify(textOf(stmt.source, expr), shown, false);
}

/** A node's text as written, comments included. */
function rawText(source: SnippetSource, node: EsNode): string {
  return source.text.slice(node.start, node.end);
}

function classify(call: string, shown: Shown, printed: boolean): Found {
  const { text, marked } = shown;
  const lit = parseLiteral(text);
  const error = documentedError(text);
  if (error && !lit) return { call, outcome: 'throws', error };
  if (lit) {
    // console.log('x') prints x; a shown quoted string after console.log means the value's text.
    if (printed && lit.t === 'string') return { call, outcome: 'prints', expected: lit.v };
    if (printed && ['number', 'bool', 'null', 'undefined', 'nan'].includes(lit.t))
      return { call, outcome: 'prints', expected: text.trim() };
    // `x.toString() //=> 9`: a call that returns a string shows its text; compared as printed, as written.
    if (RETURNS_STRING.test(call) && ['number', 'bool', 'null', 'nan'].includes(lit.t))
      return { call, outcome: 'prints', expected: text.trim() };
    return { call, outcome: 'value', expected: text.trim() };
  }
  if (isPrintedToken(text, marked || printed)) return { call, outcome: 'prints', expected: text.trim() };
  return { reason: `shown result '${text.slice(0, 60)}' is not a literal value, printed token or error` };
}

/** Calls whose result is a string by definition (`.toString()`, `.toFixed(2)`, `String(x)`, `JSON.stringify(x)`). */
const RETURNS_STRING =
  /\.(?:toString|toFixed|toPrecision|toExponential|toISOString|toUTCString|toDateString|toTimeString|toLocale\w*String|toJSONString|join|padStart|padEnd|toUpperCase|toLowerCase|trim|trimStart|trimEnd|repeat)\s*\([^()]*\)$|^(?:String|JSON\.stringify)\s*\(/;

function isDeclaration(node: EsNode): boolean {
  return /^(?:VariableDeclaration|FunctionDeclaration|ClassDeclaration)$/.test(unexported(node).type);
}
