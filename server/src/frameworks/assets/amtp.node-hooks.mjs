// Module hooks of AMTP's loader (./amtp.node-loader.mjs registers them; they run on Node's loader thread).
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const TS_FILE = /\.(?:[mc]?ts|tsx)$/;
const JSON_FILE = /\.json(?:[?#].*)?$/;
/** What a missing `./x.js` may be written as in TypeScript sources, and what an extensionless path may be. */
const FOR_JS = { '.js': ['.ts', '.tsx'], '.mjs': ['.mts'], '.cjs': ['.cts'], '.jsx': ['.tsx'] };
const BARE = ['.ts', '.tsx', '.mts', '.js', '.mjs', '.cjs', '.json', '/index.ts', '/index.tsx', '/index.js', '/index.mjs'];

/** a top-level import or export statement (an `import()` expression is not one) */
const ESM_SYNTAX = /^\s*(?:import\s*[\w*{'"]|export\s)/m;
const CJS_SYNTAX = /\brequire\s*\(|\bmodule\.exports\b|\bexports\.\w/;

let ts;
/** The TypeScript compiler AMTP ships, loaded on the first TypeScript file only. */
function typescript() {
  ts ??= createRequire(import.meta.url)('typescript');
  return ts;
}

function isFile(url) {
  try {
    return statSync(fileURLToPath(url)).isFile();
  } catch {
    return false;
  }
}

/** Other spellings of a relative or absolute specifier that Node could not find, in TypeScript's order. */
function alternatives(specifier, parentURL) {
  if (!parentURL || !/^(?:\.\.?(?:\/|$)|\/|file:)/.test(specifier)) return [];
  const base = new URL(specifier, parentURL);
  if (base.search || base.hash) return [];
  const href = base.href.replace(/\/$/, '');
  const ext = /\.[cm]?jsx?$/.exec(href)?.[0];
  const swapped = ext ? FOR_JS[ext].map((e) => href.slice(0, -ext.length) + e) : [];
  return [...swapped, ...BARE.map((e) => href + e)];
}

export async function resolve(specifier, context, nextResolve) {
  try {
    const found = await nextResolve(specifier, context);
    return JSON_FILE.test(found.url) && !context.importAttributes?.type
      ? { ...found, importAttributes: { ...context.importAttributes, type: 'json' } }
      : found;
  } catch (err) {
    const code = err?.code;
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'ERR_UNSUPPORTED_DIR_IMPORT') throw err;
    const url = alternatives(specifier, context.parentURL).find(isFile);
    if (!url) throw err;
    const attrs = JSON_FILE.test(url) ? { importAttributes: { ...context.importAttributes, type: 'json' } } : {};
    return { url, shortCircuit: true, ...attrs };
  }
}

export async function load(url, context, nextLoad) {
  if (JSON_FILE.test(url) && !context.importAttributes?.type)
    return nextLoad(url, { ...context, importAttributes: { ...context.importAttributes, type: 'json' } });
  if (!url.startsWith('file:') || !TS_FILE.test(url) || url.includes('/node_modules/')) return nextLoad(url, context);
  const path = fileURLToPath(url);
  const t = typescript();
  const text = readFileSync(path, 'utf8');
  // A TypeScript file written as CommonJS (`require`, no import or export), which ts-node and tsx run
  // as CommonJS in a package that is not "type": "module": as an ES module `require` is not defined.
  const commonjs = !url.endsWith('.mts') && !ESM_SYNTAX.test(text) && CJS_SYNTAX.test(text);
  const out = t.transpileModule(text, {
    fileName: path,
    compilerOptions: {
      module: commonjs ? t.ModuleKind.CommonJS : t.ModuleKind.ESNext,
      target: t.ScriptTarget.ES2022,
      jsx: t.JsxEmit.ReactJSX,
      esModuleInterop: true,
      sourceMap: false,
      inlineSourceMap: true,
      inlineSources: true,
      useDefineForClassFields: true,
    },
  });
  return { format: commonjs ? 'commonjs' : 'module', source: out.outputText, shortCircuit: true };
}
