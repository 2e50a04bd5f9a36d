import type * as TS from 'typescript';
import type { ExportStyle, SymbolInfo } from '../../contracts/types';
import { parseJsDoc } from './jsdoc';

export interface JsFileFacts {
  symbols: SymbolInfo[];
  /** module specifiers this file imports or requires (for the reference ranking) */
  imports: string[];
  syntax: 'esm' | 'cjs' | 'none';
  /** `module.exports = factory()`: the exports are built at runtime (UMD); a .d.ts may describe them */
  opaqueCjs: boolean;
}

let tsModule: typeof TS | undefined;

/** The compiler API is ~9 MB; load it only when a JS/TS file is actually analysed. */
export async function loadTypeScript(): Promise<typeof TS> {
  tsModule ??= ((await import('typescript')) as unknown as { default?: typeof TS }).default ?? ((await import('typescript')) as unknown as typeof TS);
  return tsModule;
}

/** Syntax-only analysis (no Program, no type checker): fast, and works on files that do not compile. */
export function extractJsSymbols(ts: typeof TS, text: string, fileName: string, defaultName: string): JsFileFacts {
  const kind = /\.tsx$/.test(fileName) ? ts.ScriptKind.TSX : /\.[cm]?tsx?$/.test(fileName) ? ts.ScriptKind.TS : /\.jsx$/.test(fileName) ? ts.ScriptKind.JSX : ts.ScriptKind.JS;
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const facts: JsFileFacts = { symbols: [], imports: [], syntax: 'none', opaqueCjs: false };
  const locals = new Map<string, TS.Node>();
  let esm = false;
  let cjs = false;
  for (const st of sf.statements) {
    if (ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st) || ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st) || ts.isEnumDeclaration(st)) {
      if (st.name) locals.set(st.name.text, st);
    } else if (ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name)) locals.set(d.name.text, d);
    } else if (ts.isModuleDeclaration(st) && ts.isIdentifier(st.name)) {
      locals.set(`namespace:${st.name.text}`, st);
    }
  }
  const seen = new Set<string>();
  const add = (node: TS.Node, name: string, style: ExportStyle) => {
    const key = `${style}:${name}`;
    if (seen.has(key)) return;
    seen.add(key);
    facts.symbols.push(...describe(ts, sf, node, name, style));
  };
  const resolve = (n: TS.Expression): TS.Node => (ts.isIdentifier(n) ? locals.get(n.text) ?? n : n);

  for (const st of sf.statements) {
    const mods = ts.canHaveModifiers(st) ? ts.getModifiers(st) ?? [] : [];
    const exported = mods.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    const isDefault = mods.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
    if (exported) esm = true;
    if (exported && (ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st) || ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st) || ts.isEnumDeclaration(st))) {
      add(st, st.name?.text ?? 'default', isDefault ? 'default' : 'named');
    } else if (exported && ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name)) add(d, d.name.text, 'named');
    } else if (ts.isExportAssignment(st)) {
      esm = !st.isExportEquals || esm;
      const target = resolve(st.expression);
      const name = ts.isIdentifier(st.expression) ? st.expression.text : defaultName;
      add(target === st.expression ? st : target, name, st.isExportEquals ? 'module.exports' : 'default');
      if (ts.isIdentifier(st.expression)) addNamespaceMembers(st.expression.text);
    } else if (ts.isExportDeclaration(st)) {
      esm = true;
      if (st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier)) facts.imports.push(st.moduleSpecifier.text);
      else if (st.exportClause && ts.isNamedExports(st.exportClause)) {
        for (const el of st.exportClause.elements) {
          const local = locals.get((el.propertyName ?? el.name).text);
          if (local) add(local, el.name.text, el.name.text === 'default' ? 'default' : 'named');
        }
      }
    } else if (ts.isImportDeclaration(st)) {
      esm = true;
      if (ts.isStringLiteral(st.moduleSpecifier)) facts.imports.push(st.moduleSpecifier.text);
    } else if (ts.isExpressionStatement(st) && ts.isBinaryExpression(st.expression) && st.expression.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
      const { left, right } = st.expression;
      const target = cjsTarget(ts, left);
      if (!target) continue;
      cjs = true;
      if (target === 'module.exports') {
        if (ts.isObjectLiteralExpression(right)) {
          for (const p of right.properties) {
            if (ts.isShorthandPropertyAssignment(p)) add(locals.get(p.name.text) ?? p, p.name.text, 'exports.property');
            else if ((ts.isPropertyAssignment(p) || ts.isMethodDeclaration(p)) && p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) {
              add(ts.isPropertyAssignment(p) ? withDoc(resolve(p.initializer), p) : p, p.name.text, 'exports.property');
            }
          }
        } else if (ts.isCallExpression(right) && !isRequire(ts, right)) {
          facts.opaqueCjs = true;
        } else if (!isRequire(ts, right)) {
          const node = resolve(right);
          add(node === right ? st : node, ts.isIdentifier(right) ? right.text : nameOf(ts, right) ?? defaultName, 'module.exports');
        }
      } else if (target !== 'default' || !ts.isCallExpression(right)) {
        const node = resolve(right);
        add(node === right ? st : node, target, 'exports.property');
      }
    }
  }
  // require() calls and dynamic imports anywhere in the file, for the reference ranking.
  const visit = (n: TS.Node): void => {
    if (ts.isCallExpression(n) && n.arguments.length === 1 && ts.isStringLiteral(n.arguments[0]) && (isRequire(ts, n) || n.expression.kind === ts.SyntaxKind.ImportKeyword)) {
      facts.imports.push((n.arguments[0] as TS.StringLiteral).text);
      if (isRequire(ts, n)) cjs = true;
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  facts.syntax = esm ? 'esm' : cjs ? 'cjs' : 'none';
  return facts;

  // `declare namespace slugify { export function extend }` next to `export default slugify` (typings of UMD packages).
  function addNamespaceMembers(name: string) {
    const ns = locals.get(`namespace:${name}`) as TS.ModuleDeclaration | undefined;
    if (!ns?.body || !ts.isModuleBlock(ns.body)) return;
    for (const m of ns.body.statements) {
      if (ts.isFunctionDeclaration(m) && m.name) {
        const [sym] = describe(ts, sf, m, `${name}.${m.name.text}`, 'exports.property');
        if (sym) facts.symbols.push({ ...sym, kind: 'method' });
      }
    }
  }
}

function cjsTarget(ts: typeof TS, left: TS.Expression): string | undefined {
  const text = left.getText();
  if (text === 'module.exports') return 'module.exports';
  if (ts.isPropertyAccessExpression(left) || ts.isElementAccessExpression(left)) {
    const obj = left.expression.getText();
    if (obj !== 'module.exports' && obj !== 'exports') return undefined;
    if (ts.isPropertyAccessExpression(left)) return left.name.text;
    return ts.isStringLiteral(left.argumentExpression) ? left.argumentExpression.text : undefined;
  }
  return undefined;
}

function isRequire(ts: typeof TS, n: TS.Node): boolean {
  return ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'require';
}

function nameOf(ts: typeof TS, n: TS.Node): string | undefined {
  if ((ts.isFunctionExpression(n) || ts.isClassExpression(n)) && n.name) return n.name.text;
  return undefined;
}

const docCarrier = new WeakMap<TS.Node, TS.Node>();
/** A property's own JSDoc wins over its initializer's, so remember where to look. */
function withDoc(node: TS.Node, carrier: TS.Node): TS.Node {
  if (!docCarrier.has(node)) docCarrier.set(node, carrier);
  return node;
}

function describe(ts: typeof TS, sf: TS.SourceFile, node: TS.Node, name: string, style: ExportStyle): SymbolInfo[] {
  const stmt = ts.isVariableDeclaration(node) ? node.parent.parent : node;
  const docNode = docCarrier.get(node) ?? stmt;
  const doc = parseJsDoc(leadingJsDoc(ts, sf, docNode) ?? leadingJsDoc(ts, sf, stmt) ?? '');
  const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
  let fn: TS.SignatureDeclaration | undefined;
  let kind: SymbolInfo['kind'] = 'variable';
  const init = ts.isVariableDeclaration(node) ? node.initializer : ts.isExpressionStatement(node) && ts.isBinaryExpression(node.expression) ? node.expression.right : undefined;
  if (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) fn = node;
  else if (init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init))) fn = init;
  else if (ts.isFunctionExpression(node) || ts.isArrowFunction(node)) fn = node;
  if (fn) kind = 'function';
  else if (ts.isClassDeclaration(node) || ts.isClassExpression(node) || (init && ts.isClassExpression(init))) kind = 'class';
  else if (ts.isInterfaceDeclaration(node)) kind = 'interface';
  else if (ts.isTypeAliasDeclaration(node)) kind = 'type';
  else if (ts.isEnumDeclaration(node)) kind = 'enum';
  else if (ts.isVariableDeclaration(node) && node.parent.flags & ts.NodeFlags.Const) kind = 'constant';
  const sym: SymbolInfo = { name, kind, exported: true, export_style: style, line };
  if (fn) Object.assign(sym, signatureOf(ts, sf, fn, name, doc.params, doc.returns));
  if (doc.doc) sym.doc = doc.doc.slice(0, 2000);
  if (doc.examples.length) sym.examples = doc.examples;
  if (doc.throws.length) sym.throws = doc.throws;
  const out = [sym];
  const cls = ts.isClassDeclaration(node) || ts.isClassExpression(node) ? node : init && ts.isClassExpression(init) ? init : undefined;
  if (cls) {
    for (const m of cls.members) {
      if (!ts.isMethodDeclaration(m) || !m.name || !ts.isIdentifier(m.name) || m.name.text.startsWith('_')) continue;
      const mods = ts.getModifiers(m) ?? [];
      if (mods.some((x) => x.kind === ts.SyntaxKind.PrivateKeyword || x.kind === ts.SyntaxKind.ProtectedKeyword)) continue;
      const [ms] = describe(ts, sf, m, `${name}.${m.name.text}`, style);
      out.push({ ...ms, kind: 'method' });
    }
  }
  return out;
}

function signatureOf(ts: typeof TS, sf: TS.SourceFile, fn: TS.SignatureDeclaration, name: string, docParams: Map<string, { type?: string; optional?: boolean; default?: string }>, docReturns?: string): Partial<SymbolInfo> {
  const params = fn.parameters.map((p) => {
    const pname = p.name.getText(sf);
    const d = docParams.get(pname);
    const out: NonNullable<SymbolInfo['params']>[number] = { name: pname };
    const type = p.type?.getText(sf) ?? d?.type;
    if (type) out.type = type;
    if (p.questionToken || p.initializer || d?.optional) out.optional = true;
    const dflt = p.initializer?.getText(sf) ?? d?.default;
    if (dflt) out.default = dflt;
    if (p.dotDotDotToken) out.rest = true;
    return out;
  });
  const returns = fn.type?.getText(sf) ?? docReturns;
  const isAsync = (ts.canHaveModifiers(fn) ? ts.getModifiers(fn) ?? [] : []).some((m) => m.kind === ts.SyntaxKind.AsyncKeyword);
  const paramText = params.map((p) => `${p.rest ? '...' : ''}${p.name}${p.optional && !p.default ? '?' : ''}${p.type ? `: ${p.type}` : ''}${p.default ? ` = ${p.default}` : ''}`).join(', ');
  const sig: Partial<SymbolInfo> = { signature: `${isAsync ? 'async ' : ''}${name}(${paramText})${returns ? `: ${returns}` : ''}`.replace(/\s+/g, ' '), params };
  if (returns) sig.returns = returns;
  if (isAsync) sig.async = true;
  return sig;
}

function leadingJsDoc(ts: typeof TS, sf: TS.SourceFile, node: TS.Node): string | undefined {
  const ranges = ts.getLeadingCommentRanges(sf.text, node.getFullStart()) ?? [];
  for (let i = ranges.length - 1; i >= 0; i--) {
    const text = sf.text.slice(ranges[i].pos, ranges[i].end);
    if (text.startsWith('/**')) return text;
  }
  return undefined;
}
