// Parses JavaScript/TypeScript into an ESTree AST (TS-ESTree node names for types) with its comments.
// oxc-parser first: native, about ten times faster than the JS parsers on a cold process, and its
// module loads in ~10 ms where the TypeScript compiler took ~0.5 s. Its binary comes from a per-platform
// npm package, so where none loads (an unlisted platform, a package built elsewhere) @babel/parser
// with its `estree` plugin gives the same node shapes in plain JavaScript.

/** An ESTree node: `type`, UTF-16 `start`/`end` offsets, and the node's own fields. */
export interface EsNode {
  type: string;
  start: number;
  end: number;
  // Parser nodes are walked generically (ESTree from oxc or babel): any field, any shape.
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

export interface ParsedJs {
  program: EsNode;
  /** sorted by position */
  comments: EsComment[];
}

export interface JsParser {
  readonly name: 'oxc' | 'babel';
  /** Never throws for bad syntax: what could be recovered is returned (possibly an empty program). */
  parse(fileName: string, text: string): ParsedJs;
}

type Lang = 'js' | 'jsx' | 'ts' | 'tsx' | 'dts';

export function langOf(fileName: string): Lang {
  if (/\.d\.[cm]?ts$/.test(fileName)) return 'dts';
  if (/\.tsx$/.test(fileName)) return 'tsx';
  if (/\.[cm]?ts$/.test(fileName)) return 'ts';
  if (/\.jsx$/.test(fileName)) return 'jsx';
  return 'js';
}

/** `.cjs` may `return` at the top level; `.mjs` is always a module; anything else is decided by its syntax. */
function sourceTypeOf(fileName: string): 'commonjs' | 'module' | 'unambiguous' {
  if (/\.c[jt]s$/.test(fileName)) return 'commonjs';
  if (/\.m[jt]s$/.test(fileName)) return 'module';
  return 'unambiguous';
}

let loaded: Promise<JsParser> | undefined;

/** Loads a parser once per process; only called when a JS/TS file is analysed. */
export function loadJsParser(): Promise<JsParser> {
  loaded ??= loadOxc().catch(() => babelParser());
  return loaded;
}

async function loadOxc(): Promise<JsParser> {
  if (process.env.AMTP_JS_PARSER === 'babel') throw new Error('babel requested');
  const oxc = await import('oxc-parser');
  const parseSync = oxc.parseSync ?? (oxc as unknown as { default: typeof oxc }).default.parseSync;
  return {
    name: 'oxc',
    parse(fileName, text) {
      const r = parseSync(fileName, text, { lang: langOf(fileName), sourceType: sourceTypeOf(fileName), preserveParens: false });
      return { program: r.program as unknown as EsNode, comments: r.comments as EsComment[] };
    },
  };
}

/** The fallback is required only when oxc cannot load, so its 0.5 MB is not evaluated otherwise. */
export function babelParser(): JsParser {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use only
  const babel = require('@babel/parser') as typeof import('@babel/parser');
  return {
    name: 'babel',
    parse(fileName, text) {
      const lang = langOf(fileName);
      const plugins: import('@babel/parser').ParserPlugin[] = ['estree'];
      if (lang === 'ts' || lang === 'tsx' || lang === 'dts') plugins.push(['typescript', { dts: lang === 'dts' }]);
      if (lang !== 'ts' && lang !== 'dts') plugins.push('jsx');
      const st = sourceTypeOf(fileName);
      try {
        const file = babel.parse(text, {
          sourceType: st === 'commonjs' ? 'script' : st,
          allowReturnOutsideFunction: st !== 'module',
          errorRecovery: true,
          attachComment: false,
          plugins,
        }) as unknown as { program: EsNode; comments?: { type: string; value: string; start: number; end: number }[] };
        // Babel names comments CommentBlock/CommentLine even with the estree plugin.
        const comments = (file.comments ?? []).map((c): EsComment => ({
          type: c.type === 'CommentBlock' ? 'Block' : 'Line',
          value: c.value,
          start: c.start,
          end: c.end,
        }));
        return { program: file.program, comments };
      } catch {
        // Babel gives up on some errors even in recovery mode; oxc returns an empty program then too.
        return { program: { type: 'Program', start: 0, end: text.length, body: [] }, comments: [] };
      }
    },
  };
}
