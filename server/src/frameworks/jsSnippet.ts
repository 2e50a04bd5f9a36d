// JavaScript/TypeScript snippets from documents or models (an oracle's setup and call), parsed when
// a test file is rendered. A snippet that does not parse, or is not the shape its place needs (one
// expression; statements a function body can hold), is rejected with its reason, so it never reaches
// a file: one bad case is listed in not_written instead of breaking every test beside it.
import type * as TS from 'typescript';
import { typescript } from '../util/typescript';
import { str } from './jsNodes';

export type Rejected = { reason: string };

/** A parsed snippet; `make()` builds a fresh copy each time it is placed in a test (a node has one parent). */
export interface Parsed<T> {
  make(): T;
  /** it awaits at its own level (not inside a function of its own), so its test must be async */
  awaits: boolean;
}

/** Where the snippet goes: TypeScript syntax is allowed in `.ts` test files only. */
export interface SnippetTarget {
  typescript: boolean;
}

/** One expression, e.g. an oracle's `call`. A trailing `;` is allowed. */
export function parseExpression(field: string, text: string, target: SnippetTarget): Parsed<TS.Expression> | Rejected {
  // Parsed inside parentheses so an object literal is an expression, never a block; the snippet
  // starts on line 2 of the wrapper, so error positions are its own.
  const wrapped = `(\n${text.replace(/;\s*$/, '')}\n)`;
  const parsed = parseModule(field, wrapped, target, 1);
  if ('reason' in parsed) return parsed;
  const ts = typescript();
  const [only, ...more] = parsed.statements;
  const paren = only && ts.isExpressionStatement(only) && ts.isParenthesizedExpression(only.expression) ? only.expression : undefined;
  // `a), (b` parses too, as two parenthesized expressions: the parentheses must be the wrapper's own.
  if (!paren || more.length || paren.getStart(parsed.sf) !== 0 || paren.end !== wrapped.length)
    return { reason: `${field} is not one expression` };
  const rejected = unsupported(ts, field, paren.expression);
  if (rejected) return rejected;
  const make = () => ((fresh(wrapped, target)[0] as TS.ExpressionStatement).expression as TS.ParenthesizedExpression).expression;
  return { make, awaits: awaitsAtTopLevel(ts, paren.expression) };
}

/** Statements that run inside the test function, e.g. an oracle's `setup`. */
export function parseStatements(field: string, text: string, target: SnippetTarget): Parsed<TS.Statement[]> | Rejected {
  const parsed = parseModule(field, text, target, 0);
  if ('reason' in parsed) return parsed;
  const ts = typescript();
  for (const st of parsed.statements) {
    const exported = ts.canHaveModifiers(st) && (ts.getModifiers(st) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (
      ts.isImportDeclaration(st) ||
      ts.isImportEqualsDeclaration(st) ||
      ts.isExportDeclaration(st) ||
      ts.isExportAssignment(st) ||
      exported
    ) {
      return {
        reason: `${field} has an import or export at ${position(parsed.sf, st.getStart(parsed.sf), 0)}, which cannot go inside a test function`,
      };
    }
    const rejected = unsupported(ts, field, st);
    if (rejected) return rejected;
  }
  return { make: () => fresh(text, target), awaits: parsed.statements.some((s) => awaitsAtTopLevel(ts, s)) };
}

interface ParsedModule {
  sf: TS.SourceFile;
  statements: readonly TS.Statement[];
}

/**
 * Parses `text` as a module (`export {}` appended: top-level `await x` is then an await, not a call
 * of a function named await) and returns its statements, or the first syntax error.
 */
function parseModule(field: string, text: string, target: SnippetTarget, lineOffset: number): ParsedModule | Rejected {
  const ts = typescript();
  const sf = ts.createSourceFile(
    target.typescript ? '/snippet.mts' : '/snippet.mjs',
    `${text}\nexport {};`,
    ts.ScriptTarget.Latest,
    true,
    target.typescript ? ts.ScriptKind.TS : ts.ScriptKind.JS,
  );
  const error = firstSyntaxError(ts, sf);
  if (error) {
    const where =
      error.start !== undefined && error.start < text.length - lineOffset ? ` at ${position(sf, error.start, lineOffset)}` : ' at its end';
    return { reason: `${field} does not parse: ${error.message}${where}` };
  }
  return { sf, statements: sf.statements.slice(0, -1) };
}

/** The first syntax error of a whole file (`line:column` included), as tsc would report it; undefined when it parses. */
export function jsSyntaxError(fileName: string, text: string): string | undefined {
  const ts = typescript();
  const kind = /\.[cm]?tsx$/.test(fileName)
    ? ts.ScriptKind.TSX
    : /\.[cm]?ts$/.test(fileName)
      ? ts.ScriptKind.TS
      : /\.jsx$/.test(fileName)
        ? ts.ScriptKind.JSX
        : ts.ScriptKind.JS;
  const sf = ts.createSourceFile(`/${fileName.replace(/^.*\//, '')}`, text, ts.ScriptTarget.Latest, true, kind);
  const error = firstSyntaxError(ts, sf);
  return error && `${error.message} at ${position(sf, error.start ?? 0, 0)}`;
}

/** `line:column`, 1-based, in the snippet's own text. */
function position(sf: TS.SourceFile, pos: number, lineOffset: number): string {
  const { line, character } = sf.getLineAndCharacterOfPosition(pos);
  return `${line + 1 - lineOffset}:${character + 1}`;
}

interface SyntaxProblem {
  message: string;
  start: number | undefined;
}

/** Answers by file name and text; docs repeat their calls, and a program per snippet is most of the cost. */
const checked = new Map<string, SyntaxProblem | null>();
const CHECKED_MAX = 4000;

function firstSyntaxError(ts: typeof TS, sf: TS.SourceFile): SyntaxProblem | undefined {
  const key = `${sf.fileName}\0${sf.text}`;
  const known = checked.get(key);
  if (known !== undefined) return known ?? undefined;
  const d = syntaxErrors(ts, sf)[0];
  const problem = d ? { message: ts.flattenDiagnosticMessageText(d.messageText, ' ').replace(/\.$/, ''), start: d.start } : undefined;
  if (checked.size >= CHECKED_MAX) checked.delete(checked.keys().next().value!);
  checked.set(key, problem ?? null);
  return problem;
}

/** Parse errors plus the ones only JavaScript has (type annotations in a .js file), as tsc reports them. */
function syntaxErrors(ts: typeof TS, sf: TS.SourceFile): readonly TS.Diagnostic[] {
  const host: TS.CompilerHost = {
    getSourceFile: (name) => (name === sf.fileName ? sf : undefined),
    writeFile: () => undefined,
    getDefaultLibFileName: () => '/lib.d.ts',
    useCaseSensitiveFileNames: () => true,
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => '/',
    getNewLine: () => '\n',
    fileExists: (name) => name === sf.fileName,
    readFile: () => undefined,
  };
  const program = ts.createProgram({ rootNames: [sf.fileName], options: { noLib: true, noResolve: true, allowJs: true, types: [] }, host });
  return program.getSyntacticDiagnostics(sf);
}

/** JSX parses in a .js snippet but no runner loads it from a plain test file. */
function unsupported(ts: typeof TS, field: string, node: TS.Node): Rejected | undefined {
  let jsx = false;
  const visit = (n: TS.Node): void => {
    if (ts.isJsxElement(n) || ts.isJsxSelfClosingElement(n) || ts.isJsxFragment(n)) jsx = true;
    else ts.forEachChild(n, visit);
  };
  visit(node);
  return jsx ? { reason: `${field} uses JSX, which a plain test file cannot hold` } : undefined;
}

function awaitsAtTopLevel(ts: typeof TS, node: TS.Node): boolean {
  if (ts.isAwaitExpression(node) || (ts.isForOfStatement(node) && node.awaitModifier)) return true;
  if (ts.isFunctionLike(node) || ts.isClassLike(node)) return false;
  return ts.forEachChild(node, (c) => awaitsAtTopLevel(ts, c) || undefined) ?? false;
}

/**
 * Parses again and rebuilds every node as a synthesized one (no text positions). The printer reads
 * a parsed node's text and comments from the file it is printing, which is not the snippet's file;
 * a synthesized node prints from its own data. Literals keep their written form (quote style, 0xFF).
 */
function fresh(source: string, target: SnippetTarget): TS.Statement[] {
  const ts = typescript();
  const sf = ts.createSourceFile(
    target.typescript ? '/snippet.mts' : '/snippet.mjs',
    `${source}\nexport {};`,
    ts.ScriptTarget.Latest,
    true,
    target.typescript ? ts.ScriptKind.TS : ts.ScriptKind.JS,
  );
  const f = ts.factory;
  const none = { pos: -1, end: -1 };
  const leaf = (n: TS.Node): TS.Node | undefined => {
    if (ts.isStringLiteral(n)) return str(n.text, sf.text.charCodeAt(n.getStart(sf)) === 39);
    if (ts.isNumericLiteral(n)) return f.createNumericLiteral(n.getText(sf));
    if (ts.isBigIntLiteral(n)) return f.createBigIntLiteral(n.getText(sf));
    if (ts.isRegularExpressionLiteral(n)) return f.createRegularExpressionLiteral(n.text);
    if (ts.isNoSubstitutionTemplateLiteral(n)) return f.createNoSubstitutionTemplateLiteral(n.text, n.rawText);
    if (ts.isTemplateHead(n)) return f.createTemplateHead(n.text, n.rawText);
    if (ts.isTemplateMiddle(n)) return f.createTemplateMiddle(n.text, n.rawText);
    if (ts.isTemplateTail(n)) return f.createTemplateTail(n.text, n.rawText);
    if (ts.isIdentifier(n)) return f.createIdentifier(n.text);
    if (ts.isPrivateIdentifier(n)) return f.createPrivateIdentifier(n.text);
    return undefined;
  };
  return sf.statements.slice(0, -1).map(
    (st) =>
      ts.transform(st, [
        (ctx) => (root) => {
          const visit = (n: TS.Node): TS.Node => ts.setTextRange(leaf(n) ?? ts.visitEachChild(n, visit, ctx), none);
          return visit(root) as TS.Statement;
        },
      ]).transformed[0],
  );
}
