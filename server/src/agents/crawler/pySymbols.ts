import type { Node } from 'web-tree-sitter';
import type { HelperSpan, SymbolInfo } from '../../contracts/types';
import { withCarriedSetup } from './doctestSetup';
import { dunderAll } from './pyAll';
import { cleandoc, doctestBlocks, raisesOf } from './pyDocstring';
import { stringValue } from './pyStringNode';
import type { PyParser } from '../../frameworks/pyGrammar';
import { PySpanReader } from './pySpans';

export interface PyFileFacts {
  symbols: SymbolInfo[];
  /** the top-level definitions the symbols' code uses, with their lines (pySpans.ts) */
  helpers?: HelperSpan[];
  /** modules imported anywhere in the file, as written (`.ops`, `pkg.mod`) */
  imports: string[];
}

type Param = NonNullable<SymbolInfo['params']>[number];

/** Dunder methods that are part of how a class is used, so they are listed like public methods. */
const PUBLIC_DUNDERS = new Set(['__init__', '__call__']);
/** Decorators that make a method an attribute: `@property`, `@functools.cached_property`, `@x.setter`. */
const PROPERTY = /^(?:(?:functools\.)?(?:cached_)?property|\w+\.(?:setter|getter|deleter))$/;

/**
 * A module's public surface from its syntax tree: top-level functions and classes, the methods of
 * classes (as `Class.method`) and of their nested classes (`Outer.Inner.method`), with signatures,
 * docstrings, doctest examples and documented exceptions. `__all__`, when the module sets it, decides
 * what is exported; otherwise a leading underscore makes a name private.
 */
export function extractPySymbols(py: PyParser, text: string): PyFileFacts {
  const tree = py.parser.parse(text);
  if (!tree) throw new Error('the Python parser returned no tree');
  try {
    const root = tree.rootNode;
    const all = dunderAll(root);
    const symbols: SymbolInfo[] = [];
    const spans = new PySpanReader(root);
    for (const st of root.namedChildren) {
      const def = definitionOf(st);
      if (!def) continue;
      const name = def.node.childForFieldName('name')?.text ?? '';
      const exported = all ? all.has(name) : !name.startsWith('_');
      if (def.node.type === 'class_definition') symbols.push(...classSymbols(spans, def.node, name, exported));
      else symbols.push(functionSymbol(spans, def.node, name, 'function', exported, def.decorators));
    }
    moduleExamples(root, symbols);
    const imports: string[] = [];
    // Imports at any depth (lazy imports in functions count as references too), found by the parser's
    // own walk in WebAssembly: cheaper than visiting the statements one call at a time from here.
    for (const node of root.descendantsOfType(['import_statement', 'import_from_statement'])) {
      if (node.type === 'import_from_statement') {
        const mod = node.childForFieldName('module_name');
        if (mod) imports.push(mod.text);
      } else {
        for (const n of node.childrenForFieldName('name'))
          imports.push((n.type === 'aliased_import' ? n.childForFieldName('name') : n)?.text ?? '');
      }
    }
    const helpers = spans.helpers();
    return { symbols, imports: imports.filter(Boolean), ...(helpers.length ? { helpers } : {}) };
  } finally {
    tree.delete(); // the tree lives in WebAssembly memory, which no garbage collector frees
  }
}

/** A `def`/`class` statement, unwrapped from its decorators. */
function definitionOf(st: Node): { node: Node; decorators: string[] } | undefined {
  if (st.type === 'function_definition' || st.type === 'class_definition') return { node: st, decorators: [] };
  if (st.type !== 'decorated_definition') return undefined;
  const node = st.childForFieldName('definition');
  if (!node || (node.type !== 'function_definition' && node.type !== 'class_definition')) return undefined;
  const decorators = st.namedChildren.filter((c) => c.type === 'decorator').map((d) => d.text.replace(/^@\s*/, ''));
  return { node, decorators };
}

/** The class, then its public methods and nested classes, depth first. Methods are as exported as their class. */
function classSymbols(spans: PySpanReader, cls: Node, name: string, exported: boolean): SymbolInfo[] {
  const sym: SymbolInfo = { name, kind: 'class', exported, export_style: 'python', ...spanOf(spans, cls, name) };
  const supers = cls.childForFieldName('superclasses');
  sym.signature = `${cls.childForFieldName('name')?.text ?? name}${supers ? oneLine(supers.text) : ''}`;
  addDoc(sym, docstringOf(cls));
  const out = [sym];
  for (const st of cls.childForFieldName('body')?.namedChildren ?? []) {
    const def = definitionOf(st);
    if (!def) continue;
    const member = def.node.childForFieldName('name')?.text ?? '';
    if (member.startsWith('_') && !PUBLIC_DUNDERS.has(member)) continue;
    if (def.node.type === 'class_definition') out.push(...classSymbols(spans, def.node, `${name}.${member}`, exported));
    else if (def.decorators.some((d) => PROPERTY.test(d))) {
      // `Cache.maxsize` through the class is a property object, not callable: an attribute, listed once
      if (!out.some((s) => s.name === `${name}.${member}`))
        out.push({ ...functionSymbol(spans, def.node, `${name}.${member}`, 'method', exported, []), kind: 'variable', params: undefined });
    } else out.push(functionSymbol(spans, def.node, `${name}.${member}`, 'method', exported, def.decorators));
  }
  return out;
}

function functionSymbol(
  spans: PySpanReader,
  fn: Node,
  name: string,
  kind: 'function' | 'method',
  exported: boolean,
  decorators: string[],
): SymbolInfo {
  const sym: SymbolInfo = { name, kind, exported, export_style: 'python', ...spanOf(spans, fn, name) };
  const isAsync = fn.children.some((c) => c.type === 'async');
  const paramNodes = (fn.childForFieldName('parameters')?.namedChildren ?? []).filter((p) => p.type !== 'comment');
  const returns = fn.childForFieldName('return_type');
  const own = fn.childForFieldName('name')?.text ?? name;
  sym.signature = `${isAsync ? 'async ' : ''}${own}(${paramNodes.map((p) => oneLine(p.text)).join(', ')})${returns ? ` -> ${oneLine(returns.text)}` : ''}`;
  if (isAsync) sym.async = true;
  let params = paramNodes.map(paramOf).filter((p): p is Param => !!p);
  // The receiver is bound by the call (`obj.m()`, `Cls.m()`), so it is no parameter a caller passes.
  const bound = kind === 'method' && !decorators.some((d) => d === 'staticmethod' || d.endsWith('.staticmethod'));
  if (bound && params.length && !params[0].rest) params = params.slice(1);
  sym.params = params;
  if (returns) sym.returns = oneLine(returns.text);
  addDoc(sym, docstringOf(fn));
  return sym;
}

/** A definition's lines (the `def`/`class` line to its last) and the module's top-level names it uses. */
function spanOf(spans: PySpanReader, node: Node, name: string): Pick<SymbolInfo, 'line' | 'end_line' | 'calls'> {
  const calls = spans.calls(node, name);
  return { line: node.startPosition.row + 1, end_line: node.endPosition.row + 1, ...(calls.length ? { calls } : {}) };
}

/** One parameter node; undefined for the `/` and `*` markers. */
function paramOf(p: Node): Param | undefined {
  switch (p.type) {
    case 'identifier':
      return { name: p.text };
    case 'list_splat_pattern':
    case 'dictionary_splat_pattern':
      return { name: p.namedChildren[0]?.text ?? p.text.replace(/^\*+/, ''), rest: true };
    case 'typed_parameter': {
      const inner = p.namedChildren[0];
      const type = p.childForFieldName('type');
      const splat = inner?.type === 'list_splat_pattern' || inner?.type === 'dictionary_splat_pattern';
      const out: Param = { name: splat ? (inner.namedChildren[0]?.text ?? '') : (inner?.text ?? '') };
      if (type) out.type = oneLine(type.text);
      if (splat) out.rest = true;
      return out;
    }
    case 'default_parameter':
    case 'typed_default_parameter': {
      const out: Param = { name: p.childForFieldName('name')?.text ?? '' };
      const type = p.childForFieldName('type');
      if (type) out.type = oneLine(type.text);
      out.default = oneLine(p.childForFieldName('value')?.text ?? '');
      out.optional = true;
      return out;
    }
    case 'positional_separator':
    case 'keyword_separator':
      return undefined;
    default:
      return { name: oneLine(p.text) };
  }
}

function addDoc(sym: SymbolInfo, doc: string | undefined): void {
  if (!doc) return;
  sym.doc = doc.slice(0, 2000);
  // Later blocks get the earlier blocks' imports and assignments they use (doctestSetup.ts).
  const examples = withCarriedSetup(doctestBlocks(doc));
  if (examples.length) sym.examples = examples;
  const throws = raisesOf(doc);
  if (throws.length) sym.throws = throws;
}

/**
 * A module docstring's doctests (python3-parse documents `parse(...)` only there) are examples of
 * the exported functions they call, for those that have none of their own.
 */
function moduleExamples(root: Node, symbols: SymbolInfo[]): void {
  const first = root.namedChildren.find((c) => c.type !== 'comment');
  const str = first?.type === 'expression_statement' && first.namedChildCount === 1 ? first.namedChildren[0] : undefined;
  const doc = str?.type === 'string' ? stringValue(str) : undefined;
  if (!doc || !doc.includes('>>>')) return;
  const blocks = withCarriedSetup(doctestBlocks(cleandoc(doc)));
  for (const sym of symbols) {
    if (sym.kind !== 'function' || !sym.exported || sym.examples?.length) continue;
    const call = new RegExp(`^>>> (?:.*[^\\w.])?${sym.name}\\(`, 'm');
    const mine = blocks.filter((b) => call.test(b)).slice(0, 12);
    if (mine.length) sym.examples = mine;
  }
}

/** The docstring: a plain string literal as the body's first statement, as Python's `__doc__` sees it. */
function docstringOf(def: Node): string | undefined {
  const first = def.childForFieldName('body')?.namedChildren.find((c) => c.type !== 'comment');
  const str = first?.type === 'expression_statement' && first.namedChildCount === 1 ? first.namedChildren[0] : undefined;
  if (str?.type !== 'string') return undefined;
  const value = stringValue(str);
  return value === undefined ? undefined : cleandoc(value) || undefined;
}

/** A multi-line piece of code on one line: lines trimmed and joined (linear: no regex backtracking on long runs of spaces). */
function oneLine(s: string): string {
  if (!s.includes('\n')) return s;
  return s
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .join(' ')
    .replaceAll('( ', '(')
    .replaceAll(' )', ')');
}
