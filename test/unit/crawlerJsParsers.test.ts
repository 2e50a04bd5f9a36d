import { strict as assert } from 'node:assert';
import { loadJsParser, type JsParser } from '../../server/src/util/jsParser';
import { extractJsSymbols } from '../../server/src/agents/crawler/jsSymbols';

// The crawler reads JS/TS with oxc-parser, its one JS reader (its WebAssembly build where no native
// binary loads: the same parser).
const SOURCES: [string, string][] = [
  [
    'lib/index.js',
    `'use strict';
const { clamp } = require('./clamp');
/**
 * Adds two numbers.
 * @param {number} a first
 * @param {number} [b=0] second
 * @returns {number}
 * @throws {TypeError} when a is not a number
 * @example
 * add(1, 2) // 3
 */
function add(a, b = 0) { return a + b; }
module.exports = add;
module.exports.clamp = clamp;
exports['VERSION'] = '1';
/** Subtracts. */
exports.sub = function sub(a, b) { return a - b; };
exports.lazy = () => import('./lazy.js');
`,
  ],
  [
    'lib/obj.cjs',
    `function parse(s) { return s; }
/** Formats. */
function format(v, ...rest) {}
module.exports = {
  /** Parses a string. */
  parse,
  format: format,
  /** Inline. */
  inline(x = { a: 1 }) { return x; },
  get ignored() { return 1; },
  ['computed']: 1,
};
return;
`,
  ],
  [
    'src/index.ts',
    `import { helper } from './helper';
export { slug } from './slug';
export * from './all';
/** Reverses a string. */
export function reverse(s: string): string { return [...s].reverse().join(''); }
export const upper = async (s: string, times?: number): Promise<string> => s.toUpperCase();
export let counter = 0;
/** Greets. */
export default class Greeter {
  constructor(private readonly name: string) {}
  /** Says hi. */
  greet(name: string, { loud = false }: { loud?: boolean } = {}): string { return 'hi ' + name; }
  static create(): Greeter { return new Greeter('x'); }
  over(a: string): string;
  over(a: number): string;
  over(a: unknown): string { return String(a); }
  private secret() {}
  protected inner() {}
  _hidden() {}
  #priv() {}
  get value() { return 1; }
}
export interface Options { a: number }
export type Mode2 = 'a' | 'b';
export enum Mode { A, B }
export declare function declared(x: number): void;
/** Picks one. */
export function pick(a: string): string;
export function pick(a: number): number;
export function pick(a: unknown): unknown {
  return a ?? counter;
}
const local = 1;
export { local as renamed, local as default2 };
`,
  ],
  [
    'types/index.d.ts',
    `declare module slugify {
  type ExtendArgs = { [key: string]: any };
  /** Extends the charmap. */
  export function extend (args: ExtendArgs): void;
}
declare function slugify(
  string: string,
  options?: | { replacement?: string } | string,
): string;
export default slugify;
`,
  ],
  ['broken.js', 'export function ( {{{ \n'],
  ['esm.mjs', `// café 🎉 before the doc\n/** Doc é. */\nexport default function (a, b) {}\n`],
];

describe('crawler: oxc-parser reads JS/TS', () => {
  let oxc: JsParser;
  before(async () => {
    oxc = await loadJsParser();
  });

  /** A file's facts, as the crawl reads them (`defaultName`: the module's name). */
  const exportsOf = (code: string, file: string, defaultName: string) => extractJsSymbols(oxc, code, file, defaultName);

  it('loads oxc-parser here (this machine has its binary)', () => {
    assert.equal(oxc.name, 'oxc');
  });

  it('a .js file with JSX (a React component) is read, not an empty program', () => {
    const f = extractJsSymbols(
      oxc,
      '/** A greeting. */\nexport function Hello({ name }) {\n  return <p className="x">Hi {name}</p>;\n}\n',
      'src/Hello.js',
      'main',
    );
    assert.deepEqual(
      f.symbols.map((s) => [s.name, s.doc, s.line]),
      [['Hello', 'A greeting.', 2]],
    );
  });

  it('what the CommonJS file exports, with JSDoc', () => {
    const f = extractJsSymbols(oxc, SOURCES[0][1], SOURCES[0][0], 'main');
    assert.equal(f.syntax, 'cjs');
    assert.deepEqual(f.imports, ['./clamp', './lazy.js']);
    const by = Object.fromEntries(f.symbols.map((s) => [s.name, s]));
    assert.deepEqual(Object.keys(by), ['add', 'clamp', 'VERSION', 'sub', 'lazy']);
    assert.equal(by.add.export_style, 'module.exports');
    assert.equal(by.add.signature, 'add(a: number, b: number = 0): number');
    assert.deepEqual(by.add.examples, ['add(1, 2) // 3']);
    assert.deepEqual(by.add.throws, ['TypeError: when a is not a number']);
    assert.equal(by.add.line, 12);
    assert.equal(by.sub.doc, 'Subtracts.');
    assert.equal(by.sub.kind, 'function');
    assert.equal(by.VERSION.export_style, 'exports.property');
  });

  it('a script wrapped in a function (an IIFE, a UMD factory) exports what its body assigns or its factory returns', () => {
    // async-each@1.0.6's layout: the export is guarded by an `if` inside an IIFE
    const iife = exportsOf(
      "/*! lib */\n(function (globals) {\n  'use strict';\n  /** Maps in parallel. */\n  var each = function (items, next, callback) {\n    return items.length;\n  };\n  if (typeof define !== 'undefined' && define.amd) {\n    define([], function () { return each; });\n  } else if (typeof module !== 'undefined' && module.exports) {\n    module.exports = each;\n  } else {\n    globals.asyncEach = each;\n  }\n})(this);\n",
      'index.js',
      'asyncEach',
    );
    assert.equal(iife.syntax, 'cjs');
    assert.deepEqual(
      iife.symbols.map((s) => [s.name, s.export_style, s.kind, s.doc, s.line]),
      [['each', 'module.exports', 'function', 'Maps in parallel.', 5]],
    );
    const umd = exportsOf(
      "(function (root, factory) {\n  if (typeof module === 'object' && module.exports) module.exports = factory();\n  else root.Lib = factory();\n})(this, function () {\n  function twice(x) { return 2 * x; }\n  function half(x) { return x / 2; }\n  return { twice: twice, half };\n});\n",
      'umd.js',
      'lib',
    );
    assert.deepEqual(
      umd.symbols.map((s) => [s.name, s.export_style, s.line]),
      [
        ['twice', 'exports.property', 5],
        ['half', 'exports.property', 6],
      ],
    );
    assert.equal(umd.opaqueCjs, true, 'typings, when the package has them, describe a UMD build better');
    const named = exportsOf(
      "(function (name, root, factory) { if (typeof exports === 'object') module.exports = factory(); else root[name] = factory(); }('slugify', this, function () {\n  /** Slugifies. */\n  function replace(string, options) { return string; }\n  return replace;\n}));\n",
      'slugify.js',
      'slugify',
    );
    assert.deepEqual(
      named.symbols.map((s) => [s.name, s.export_style, s.doc, s.line]),
      [['slugify', 'module.exports', 'Slugifies.', 3]],
      "a returned function is exported under the module's name",
    );
    // a factory that fills the `exports` it is given (rollup's UMD) stays opaque: its ES build is read
    const filled = exportsOf(
      "(function (g, factory) { typeof exports === 'object' ? factory(exports) : factory(g.U = {}); })(this, function (exports) { exports.twice = function (x) { return 2 * x; }; });",
      'u.cjs',
      'u',
    );
    assert.deepEqual(filled.symbols, []);
  });

  it('exports assigned inside a declaration or along a chain: `var x = module.exports = fn`, `exports.a = exports.b = fn`', () => {
    const f = exportsOf(
      "'use strict';\n/** Deep merge. */\nvar deepExtend = module.exports = function (/*obj_1, [obj_2]*/) {\n  return arguments[0];\n};\nexports.a = exports.b = function twice(x) { return 2 * x; };\n",
      'lib/deep-extend.js',
      'deepExtend',
    );
    assert.equal(f.syntax, 'cjs');
    assert.deepEqual(
      f.symbols.map((s) => [s.name, s.export_style, s.line]),
      [
        ['deepExtend', 'module.exports', 3],
        ['a', 'exports.property', 6],
        ['b', 'exports.property', 6],
      ],
    );
  });

  it('object-literal exports: a property JSDoc wins, accessors and computed keys are left out', () => {
    const f = extractJsSymbols(oxc, SOURCES[1][1], SOURCES[1][0], 'main');
    const by = Object.fromEntries(f.symbols.map((s) => [s.name, s]));
    assert.deepEqual(Object.keys(by), ['parse', 'format', 'inline']);
    assert.equal(by.parse.doc, 'Parses a string.');
    assert.equal(by.parse.kind, 'function');
    assert.equal(by.format.doc, 'Formats.');
    assert.deepEqual(by.format.params, [{ name: 'v' }, { name: 'rest', rest: true }]);
    assert.equal(by.inline.doc, 'Inline.');
    assert.equal(by.inline.signature, 'inline(x = { a: 1 })');
  });

  it('TypeScript: named, default, re-exports, class methods (public, the implementation of an overload), kinds', () => {
    const f = extractJsSymbols(oxc, SOURCES[2][1], SOURCES[2][0], 'main');
    assert.equal(f.syntax, 'esm');
    assert.deepEqual(f.imports, ['./helper', './slug', './all']);
    const by = Object.fromEntries(f.symbols.map((s) => [s.name, s]));
    assert.deepEqual(Object.keys(by), [
      'reverse',
      'upper',
      'counter',
      'Greeter',
      'Greeter.greet',
      'Greeter.create',
      'Greeter.over',
      'Options',
      'Mode2',
      'Mode',
      'declared',
      'pick',
      'renamed',
      'default2',
    ]);
    assert.equal(by.upper.signature, 'async upper(s: string, times?: number): Promise<string>');
    assert.equal(by.counter.kind, 'variable');
    assert.equal(by.renamed.kind, 'constant');
    assert.equal(by.Greeter.export_style, 'default');
    assert.equal(by.Greeter.doc, 'Greets.');
    assert.equal(by['Greeter.greet'].doc, 'Says hi.');
    assert.equal(by['Greeter.greet'].signature, 'Greeter.greet(name: string, { loud = false }: { loud?: boolean } = {}): string');
    // An overloaded function or method is its implementation (signature, lines, so its source), with the first overload's JSDoc.
    assert.equal(by['Greeter.over'].signature, 'Greeter.over(a: unknown): string');
    assert.equal(by.pick.signature, 'pick(a: unknown): unknown');
    assert.equal(by.pick.doc, 'Picks one.');
    const lines = SOURCES[2][1].split('\n');
    assert.match(lines[by.pick.line! - 1], /^export function pick\(a: unknown\): unknown \{$/);
    assert.equal(lines[by.pick.end_line! - 1], '}');
    assert.equal(by.Options.kind, 'interface');
    assert.equal(by.Mode2.kind, 'type');
    assert.equal(by.Mode.kind, 'enum');
    assert.equal(by.declared.kind, 'function');
  });

  it('typings: a default export with its namespace members', () => {
    const f = extractJsSymbols(oxc, SOURCES[3][1], SOURCES[3][0], 'slugify');
    assert.deepEqual(
      f.symbols.map((s) => [s.name, s.kind, s.export_style]),
      [
        ['slugify', 'function', 'default'],
        ['slugify.extend', 'method', 'exports.property'],
      ],
    );
    assert.equal(f.symbols[1].doc, 'Extends the charmap.');
    assert.match(f.symbols[0].signature!, /^slugify\(string: string, options\?: \| \{ replacement\?: string \} \| string\): string$/);
  });

  it('offsets count UTF-16 units, as JavaScript strings do (comments with emoji before a symbol)', () => {
    const f = extractJsSymbols(oxc, SOURCES[5][1], SOURCES[5][0], 'main');
    // An anonymous `export default function` is named `default`, as it was with the TypeScript reader.
    assert.deepEqual(
      f.symbols.map((s) => [s.name, s.doc, s.line]),
      [['default', 'Doc é.', 3]],
    );
  });
});
