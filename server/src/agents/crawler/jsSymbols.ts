import type { ExportStyle, HelperSpan, SymbolInfo } from '../../contracts/types';
import { importedNames, type ImportedName } from './importBindings';
import { parseJsDoc } from './jsdoc';
import { signatureOf } from './jsSignature';
import { SpanReader } from './jsSpans';
import { cjsTarget, isFunctionOrClass, isRequire, isString, nameOfKey, valueOf, walk } from '../../util/esTree';
import { moduleBody } from './jsWrapper';
import { leadingJsDoc, lineIndex, type DocSpot } from './jsDocSpot';
import type { EsComment, EsNode, JsParser } from '../../util/jsParser';

export interface JsFileFacts {
  symbols: SymbolInfo[];
  /** the top-level declarations the symbols' code uses, with their lines (jsSpans.ts) */
  helpers?: HelperSpan[];
  /** module specifiers this file imports or requires (for the reference ranking) */
  imports: string[];
  /** names bound from the package's other modules that its symbols' code uses (importBindings.ts) */
  imported?: ImportedName[];
  syntax: 'esm' | 'cjs' | 'none';
  /** `module.exports = factory()`: the exports are built at runtime (UMD); a .d.ts may describe them */
  opaqueCjs: boolean;
}

const DECLARATIONS = new Set([
  'FunctionDeclaration',
  'TSDeclareFunction',
  'ClassDeclaration',
  'TSInterfaceDeclaration',
  'TSTypeAliasDeclaration',
  'TSEnumDeclaration',
]);
const FUNCTIONS = new Set([
  'FunctionDeclaration',
  'TSDeclareFunction',
  'FunctionExpression',
  'ArrowFunctionExpression',
  'TSEmptyBodyFunctionExpression',
  'TSDeclareMethod',
]);
/** 'cjs' when any of the statements read showed CommonJS. */
const anyCjs = (found: ('esm' | 'cjs' | undefined)[]): 'cjs' | undefined => (found.includes('cjs') ? 'cjs' : undefined);

const METHODS = new Set(['MethodDefinition', 'TSAbstractMethodDefinition', 'TSDeclareMethod']);

/** Syntax-only analysis of one file's top level (no type checker): works on files that do not compile. */
export function extractJsSymbols(parser: JsParser, text: string, fileName: string, defaultName: string): JsFileFacts {
  const { program, comments } = parser.parse(fileName, text);
  return new FileReader(text, comments).read(program, defaultName);
}

class FileReader {
  private readonly facts: JsFileFacts = { symbols: [], imports: [], syntax: 'none', opaqueCjs: false };
  private readonly locals = new Map<string, EsNode>();
  /** declaration node → where its JSDoc is (the statement that holds it, e.g. `export const` for a declarator) */
  private readonly docSpot = new WeakMap<EsNode, DocSpot>();
  /** a property's own JSDoc wins over its value's: `module.exports = { /** doc *\/ a: impl }` */
  private readonly docCarrier = new WeakMap<EsNode, DocSpot>();
  /** declarator → `const`, `let` or `var` of its statement */
  private readonly declKind = new WeakMap<EsNode, string>();
  private readonly seen = new Set<string>();
  private lineAt: ((offset: number) => number) | undefined;
  private readonly imported = new Map<string, ImportedName>();
  private readonly spans = new SpanReader(
    this.locals,
    (node) => this.docSpot.get(node)?.at ?? node.start,
    (offset) => this.lineOf(offset),
    this.imported,
  );

  constructor(
    private readonly text: string,
    private readonly comments: EsComment[],
  ) {}

  read(program: EsNode, defaultName: string): JsFileFacts {
    const { body, start, returned } = moduleBody(program);
    this.collectLocals(body, start);
    for (const [k, v] of importedNames(body)) if (!this.locals.has(k)) this.imported.set(k, v);
    let esm = false;
    let cjs = false;
    let floor = start;
    for (const st of body) {
      const spot = { at: st.start, floor };
      floor = st.end;
      const syntax = this.readStatement(st, spot, defaultName);
      if (syntax === 'esm') esm = true;
      if (syntax === 'cjs') cjs = true;
    }
    if (returned && !this.facts.symbols.length) {
      // A UMD factory's returned value is what `module.exports = factory()` exports, under the
      // module's name (slugify@1.6.6 returns its `replace`). The file stays opaque: typings, when the
      // package has them, describe it better (staticMap.ts typedUmdExports).
      const { statement, value } = returned;
      if (value.type === 'ObjectExpression') this.cjsExport(statement, 'module.exports', value, defaultName);
      else this.add(this.resolve(value, statement), defaultName, 'module.exports');
      this.facts.opaqueCjs = true;
      cjs = true;
    }
    if (this.collectDynamicImports(program)) cjs = true;
    this.facts.syntax = esm ? 'esm' : cjs ? 'cjs' : 'none';
    const helpers = this.spans.helpers();
    if (helpers.length) this.facts.helpers = helpers;
    const imported = this.spans.importedUsed();
    if (imported.length) this.facts.imported = imported;
    return this.facts;
  }

  /** Top-level declarations by name, with where each one's JSDoc is, before any export refers to them. */
  private collectLocals(body: EsNode[], start: number): void {
    let floor = start;
    for (const st of body) {
      const spot = { at: st.start, floor };
      floor = st.end;
      const decl = st.type === 'ExportNamedDeclaration' || st.type === 'ExportDefaultDeclaration' ? (st.declaration as EsNode | null) : st;
      if (!decl) continue;
      if (DECLARATIONS.has(decl.type)) {
        if (decl.id?.type === 'Identifier') this.locals.set(decl.id.name, decl);
        this.docSpot.set(decl, spot);
      } else if (decl.type === 'VariableDeclaration') {
        for (const d of decl.declarations as EsNode[]) {
          if (d.id.type === 'Identifier') this.locals.set(d.id.name, d);
          this.docSpot.set(d, spot);
          this.declKind.set(d, decl.kind);
        }
      } else if (decl.type === 'TSModuleDeclaration' && decl.id?.type === 'Identifier') {
        this.locals.set(`namespace:${decl.id.name}`, decl);
      }
    }
  }

  /** The exports and imports of one top-level statement; which module syntax it shows, if any. */
  private readStatement(st: EsNode, spot: DocSpot, defaultName: string): 'esm' | 'cjs' | undefined {
    switch (st.type) {
      case 'ExportNamedDeclaration':
        this.exportNamed(st);
        return 'esm';
      case 'ExportDefaultDeclaration':
        this.exportDefault(st.declaration as EsNode, spot, defaultName);
        return 'esm';
      case 'TSExportAssignment': {
        // `export = expr`: CommonJS in TypeScript's syntax
        const expr = st.expression as EsNode;
        this.docSpot.set(expr, spot);
        this.add(this.resolve(expr), expr.type === 'Identifier' ? expr.name : defaultName, 'module.exports');
        if (expr.type === 'Identifier') this.addNamespaceMembers(expr.name);
        return undefined;
      }
      case 'ExportAllDeclaration':
        if (st.source) this.facts.imports.push(st.source.value);
        return 'esm';
      case 'ImportDeclaration':
        this.facts.imports.push(st.source.value);
        return 'esm';
      case 'IfStatement': {
        // `if (typeof module !== 'undefined' && module.exports) module.exports = each;` (a wrapped script)
        const branches = [st.consequent, st.alternate].filter(Boolean) as EsNode[];
        const inner = branches.flatMap((b) => (b.type === 'BlockStatement' ? (b.body as EsNode[]) : [b]));
        return anyCjs(inner.map((x) => this.readStatement(x, spot, defaultName)));
      }
      case 'ExpressionStatement': {
        // Minified builds join the exports in one statement: `exports.a=x,exports.b=y;`.
        const top = st.expression as EsNode;
        const parts = top.type === 'SequenceExpression' ? (top.expressions as EsNode[]) : [top];
        return anyCjs(parts.map((e) => this.readAssignment(st, e, spot, defaultName)));
      }
      case 'VariableDeclaration': {
        // `var deepExtend = module.exports = function () {…}` (deep-extend@0.6.0)
        const inits = (st.declarations as EsNode[]).flatMap((d) => (d.init ? [d.init as EsNode] : []));
        return anyCjs(inits.map((e) => this.readAssignment(st, e, spot, defaultName)));
      }
    }
    return undefined;
  }

  /** `module.exports = exports = fn`, `exports.a = exports.b = fn`: every CommonJS target of an assignment chain gets its value. */
  private readAssignment(st: EsNode, e: EsNode, spot: DocSpot, defaultName: string): 'cjs' | undefined {
    const targets: string[] = [];
    let value = e;
    while (value.type === 'AssignmentExpression' && value.operator === '=') {
      const target = cjsTarget(value.left as EsNode);
      if (target) targets.push(target);
      value = value.right as EsNode;
    }
    if (!targets.length) return undefined;
    this.docSpot.set(st, spot);
    if (isFunctionOrClass(value)) this.docSpot.set(value, spot);
    for (const target of targets) this.cjsExport(st, target, value, defaultName);
    return 'cjs';
  }

  /** `export function f`, `export const a = …`, `export { a as b }`, `export { x } from './y'`. */
  private exportNamed(st: EsNode): void {
    const decl = st.declaration as EsNode | null;
    if (st.source) this.facts.imports.push(st.source.value);
    else if (decl && DECLARATIONS.has(decl.type)) this.add(decl, decl.id?.name ?? 'default', 'named');
    else if (decl?.type === 'VariableDeclaration') {
      for (const d of decl.declarations as EsNode[]) if (d.id.type === 'Identifier') this.add(d, d.id.name, 'named');
    } else if (!decl) {
      for (const el of st.specifiers as EsNode[]) {
        const local = this.locals.get(nameOfKey(el.local) ?? '');
        const exported = nameOfKey(el.exported) ?? '';
        if (local) this.add(local, exported, exported === 'default' ? 'default' : 'named');
      }
    }
  }

  private exportDefault(decl: EsNode, spot: DocSpot, defaultName: string): void {
    if (DECLARATIONS.has(decl.type)) {
      this.add(decl, decl.id?.name ?? 'default', 'default');
      return;
    }
    // `export default expr` (TypeScript's export assignment)
    this.docSpot.set(decl, spot);
    const target = this.resolve(decl);
    this.add(target, decl.type === 'Identifier' ? decl.name : defaultName, 'default');
    if (decl.type === 'Identifier') this.addNamespaceMembers(decl.name);
  }

  /** require() calls and dynamic imports anywhere in the file, for the reference ranking; true when one is a require(). */
  private collectDynamicImports(program: EsNode): boolean {
    let cjs = false;
    if (!this.text.includes('require') && !this.text.includes('import')) return cjs;
    walk(program, (n) => {
      const spec =
        n.type === 'ImportExpression'
          ? n.source
          : n.type === 'CallExpression' && n.arguments.length === 1 && (isRequire(n) || n.callee.type === 'Import')
            ? n.arguments[0]
            : undefined;
      if (spec && isString(spec)) {
        this.facts.imports.push(spec.value);
        if (isRequire(n)) cjs = true;
      }
    });
    return cjs;
  }

  private cjsExport(st: EsNode, target: string, right: EsNode, defaultName: string): void {
    if (target !== 'module.exports') {
      if (target !== 'default' || right.type !== 'CallExpression') this.add(this.resolve(right, st), target, 'exports.property');
      return;
    }
    if (right.type === 'ObjectExpression') {
      let floor = right.start + 1;
      for (const p of right.properties as EsNode[]) {
        const spot = { at: p.start, floor };
        floor = p.end;
        if (p.type !== 'Property' || p.kind !== 'init' || p.computed) continue;
        const name = nameOfKey(p.key);
        if (name === undefined) continue;
        if (p.method) {
          this.docSpot.set(p, spot);
          this.add(p, name, 'exports.property');
        } else if (p.shorthand) {
          this.docSpot.set(p, spot);
          const target = this.locals.get(name) ?? p;
          if (!this.docCarrier.has(target)) this.docCarrier.set(target, spot);
          this.add(target, name, 'exports.property');
        } else {
          const target = this.resolve(p.value);
          if (!this.docCarrier.has(target)) this.docCarrier.set(target, spot);
          if (target === p.value) this.docSpot.set(target, spot);
          this.add(target, name, 'exports.property');
        }
      }
    } else if (right.type === 'CallExpression' && !isRequire(right)) {
      this.facts.opaqueCjs = true;
    } else if (!isRequire(right)) {
      const node = this.resolve(right, st);
      const name =
        right.type === 'Identifier'
          ? right.name
          : (right.type === 'FunctionExpression' || right.type === 'ClassExpression') && right.id
            ? right.id.name
            : defaultName;
      this.add(node, name, 'module.exports');
    }
  }

  /** An identifier's local declaration, else `orElse` (the statement, whose JSDoc then describes the value). */
  private resolve(n: EsNode, orElse: EsNode = n): EsNode {
    if (n.type === 'Identifier') return this.locals.get(n.name) ?? orElse;
    return isFunctionOrClass(n) ? n : orElse;
  }

  private add(node: EsNode, name: string, style: ExportStyle): void {
    const key = `${style}:${name}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.facts.symbols.push(...this.describe(node, name, style));
  }

  // `declare namespace slugify { export function extend }` next to `export default slugify` (typings of UMD packages).
  private addNamespaceMembers(name: string): void {
    const ns = this.locals.get(`namespace:${name}`);
    if (ns?.body?.type !== 'TSModuleBlock') return;
    let floor = ns.body.start + 1;
    for (const st of ns.body.body as EsNode[]) {
      const spot = { at: st.start, floor };
      floor = st.end;
      const m = st.type === 'ExportNamedDeclaration' && st.declaration ? (st.declaration as EsNode) : st;
      if ((m.type === 'FunctionDeclaration' || m.type === 'TSDeclareFunction') && m.id) {
        this.docSpot.set(m, spot);
        const [sym] = this.describe(m, `${name}.${m.id.name}`, 'exports.property');
        if (sym) this.facts.symbols.push({ ...sym, kind: 'method' });
      }
    }
  }

  /**
   * An overload signature (`function f(a: string): T;`) stands for its implementation, the declaration
   * of the same name with a body: its signature, lines, source and calls are the implementation's, its
   * JSDoc the implementation's own or else the overload's (the first one carries it). A `.d.ts` has
   * no implementation: the first signature stays.
   */
  private describe(node: EsNode, name: string, style: ExportStyle, impl = this.implementationOf(node)): SymbolInfo[] {
    if (impl && impl !== node) {
      const own = this.jsDocOf(impl);
      return this.describeWith(impl, name, style, own.doc || own.examples.length ? own : this.jsDocOf(node));
    }
    return this.describeWith(node, name, style, this.jsDocOf(node));
  }

  private implementationOf(node: EsNode): EsNode | undefined {
    if (node.type !== 'TSDeclareFunction' || node.id?.type !== 'Identifier') return undefined;
    const local = this.locals.get(node.id.name);
    return local?.type === 'FunctionDeclaration' && local.body ? local : undefined;
  }

  private jsDocOf(node: EsNode): ReturnType<typeof parseJsDoc> {
    const spot = this.docSpot.get(node);
    const carrier = this.docCarrier.get(node);
    return parseJsDoc((carrier && leadingJsDoc(this.comments, carrier)) ?? (spot && leadingJsDoc(this.comments, spot)) ?? '');
  }

  private describeWith(node: EsNode, name: string, style: ExportStyle, doc: ReturnType<typeof parseJsDoc>): SymbolInfo[] {
    const spot = this.docSpot.get(node);
    const value = valueOf(node);
    const fn = value && FUNCTIONS.has(value.type) ? value : undefined;
    let kind: SymbolInfo['kind'] = 'variable';
    if (fn) kind = 'function';
    else if (value && (value.type === 'ClassDeclaration' || value.type === 'ClassExpression')) kind = 'class';
    else if (node.type === 'TSInterfaceDeclaration') kind = 'interface';
    else if (node.type === 'TSTypeAliasDeclaration') kind = 'type';
    else if (node.type === 'TSEnumDeclaration') kind = 'enum';
    else if (node.type === 'VariableDeclarator' && this.declKind.get(node) === 'const') kind = 'constant';
    const sym: SymbolInfo = {
      name,
      kind,
      exported: true,
      export_style: style,
      line: this.lineOf(spot && node.type !== 'VariableDeclarator' ? spot.at : node.start),
    };
    sym.end_line = this.spans.endLine(node, sym.line!);
    const calls = this.spans.calls(node, node.id?.name ?? (node.type === 'VariableDeclarator' ? node.id?.name : undefined));
    if (calls.length) sym.calls = calls;
    if (fn) Object.assign(sym, signatureOf(this.text, fn, name, doc.params, doc.returns));
    if (doc.doc) sym.doc = doc.doc.slice(0, 2000);
    if (doc.examples.length) sym.examples = doc.examples;
    if (doc.throws.length) sym.throws = doc.throws;
    const out = [sym];
    if (kind === 'class') out.push(...this.methodsOf(value!, name, style));
    return out;
  }

  private methodsOf(cls: EsNode, className: string, style: ExportStyle): SymbolInfo[] {
    const out: SymbolInfo[] = [];
    const names = new Set<string>();
    let floor = cls.body.start + 1;
    const members = cls.body.body as EsNode[];
    for (const m of members) {
      this.docSpot.set(m, { at: m.start, floor });
      floor = m.end;
    }
    for (const m of members) {
      if (!METHODS.has(m.type) || (m.kind && m.kind !== 'method') || m.computed || m.key?.type !== 'Identifier') continue;
      const mname = m.key.name as string;
      if (mname.startsWith('_') || m.accessibility === 'private' || m.accessibility === 'protected' || names.has(mname)) continue;
      names.add(mname);
      // Overloads: the first signature carries the JSDoc, the one with a body is the implementation (describe()).
      const impl = members.find((x) => x.type === 'MethodDefinition' && x.key?.name === mname && !x.computed && x.value?.body);
      const [ms] = this.describe(m, `${className}.${mname}`, style, impl);
      out.push({ ...ms, kind: 'method' });
    }
    return out;
  }

  private lineOf(offset: number): number {
    this.lineAt ??= lineIndex(this.text);
    return this.lineAt(offset);
  }
}
