// Parses JavaScript/TypeScript into an ESTree AST (TS-ESTree node names for types) with its comments,
// with oxc-parser: the one reader of JS code (`npm run bench -- parsers`, 744 files of real packages:
// 3.25x faster than the TypeScript compiler and 5.95x than @babel/parser, parsing and walking; cold,
// it loads and reads a file in ~55 ms where the compiler takes ~0.57 s). Its native binary comes from a per-platform
// npm package; where none loads (an unlisted platform, a package built elsewhere) oxc falls back to its
// WebAssembly build (@oxc-parser/binding-wasm32-wasi, shipped): the same parser, the same trees.
import { preloaded } from './preloaded';

/** An ESTree node: `type`, UTF-16 `start`/`end` offsets, and the node's own fields. */
export interface EsNode {
  type: string;
  start: number;
  end: number;
  // Parser nodes are walked generically (ESTree): any field, any shape.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  [field: string]: any;
}

export interface EsComment {
  type: 'Line' | 'Block';
  /** text without the delimiters: `* doc ` for `/** doc *\/` */
  value: string;
  start: number;
  end: number;
}

/** A syntax error oxc reported: where it points (the first of its labels; 0 when it has none). */
export interface JsError {
  message: string;
  start: number;
  end: number;
}

interface ParsedJs {
  program: EsNode;
  /** sorted by position */
  comments: EsComment[];
  /** With an error oxc usually gives up on the whole text (an empty program); util/jsRecover.ts reads on. */
  errors: JsError[];
}

interface ParseOptions {
  /**
   * Keep `(…)` as ParenthesizedExpression nodes, so an expression's span is its text as written:
   * istanbul-compatible coverage (server/src/coverage/) starts a statement or branch at its
   * parenthesis, and tells `a && (b || c)` from `a && b || c`.
   */
  preserveParens?: boolean;
}

export interface JsParser {
  readonly name: 'oxc';
  /** Never throws for bad syntax: what could be recovered is returned (possibly an empty program). */
  parse(fileName: string, text: string, options?: ParseOptions): ParsedJs;
}

type Lang = 'jsx' | 'ts' | 'tsx' | 'dts';

/** A `.js` file may hold JSX (React projects name their components so): plain JS is read as JSX. */
function langOf(fileName: string): Lang {
  if (/\.d\.[cm]?ts$/.test(fileName)) return 'dts';
  if (/\.tsx$/.test(fileName)) return 'tsx';
  if (/\.[cm]?ts$/.test(fileName)) return 'ts';
  return 'jsx';
}

/** `.cjs` may `return` at the top level; `.mjs` is always a module; anything else is decided by its syntax. */
function sourceTypeOf(fileName: string): 'commonjs' | 'module' | 'unambiguous' {
  if (/\.c[jt]s$/.test(fileName)) return 'commonjs';
  if (/\.m[jt]s$/.test(fileName)) return 'module';
  return 'unambiguous';
}

const oxc = preloaded(loadOxc, { what: 'the JavaScript parser', pkg: 'oxc-parser', preload: 'loadJsParser() (util/jsParser.ts)' });

/**
 * Loads the parser once per process. oxc-parser is an ES module, so loading is asynchronous; parsing
 * is not. Each entry point (cli/main.ts, server.ts) awaits this before any command runs, so the
 * synchronous readers (coverage, mutation, the docs readers) take the parser from jsParser().
 */
export function loadJsParser(): Promise<JsParser> {
  return oxc.load();
}

/** The loaded parser; throws, naming the missing preload, when no entry point awaited loadJsParser(). */
export function jsParser(): JsParser {
  return oxc.get();
}

async function loadOxc(): Promise<JsParser> {
  const oxc = await import('oxc-parser');
  const parseSync = oxc.parseSync ?? (oxc as unknown as { default: typeof oxc }).default.parseSync;
  return {
    name: 'oxc',
    parse(fileName, text, options) {
      const opts = { lang: langOf(fileName), sourceType: sourceTypeOf(fileName), preserveParens: options?.preserveParens ?? false };
      let r = parseSync(fileName, text, opts);
      if (r.errors.length && opts.sourceType === 'unambiguous') {
        // A `.js` file that returns at the top level is CommonJS, as Node runs it (and nyc reads it).
        const cjs = parseSync(fileName, text, { ...opts, sourceType: 'commonjs' });
        if (!cjs.errors.length) r = cjs;
      }
      return { program: r.program as unknown as EsNode, comments: r.comments as EsComment[], errors: r.errors.map(errorOf) };
    },
  };
}

function errorOf(e: { message: string; labels: { start: number; end: number }[] }): JsError {
  const [first] = [...e.labels].sort((a, b) => a.start - b.start);
  return { message: e.message, start: first?.start ?? 0, end: first?.end ?? 0 };
}
