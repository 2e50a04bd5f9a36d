// How the search child (amtp.search-child.cjs) loads the module under test: `require` first (CommonJS,
// and ESM through Node's require(esm)), `import()` where that cannot work (top-level await). TypeScript
// sources (.ts/.tsx/.mts/.cts) are compiled in memory with the `typescript` package AMTP ships
// (transpileModule to CommonJS: no type check, no file written), and an import of `./x.js` finds
// `./x.ts` as tsc's resolution does. `overrides` replaces a file's text (the mutation engine's
// instrumented code, server/src/search/mutants.ts). The text V8 ran is kept per file: coverage offsets
// refer to it, and the parent computes its probes from it.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');
const { pathToFileURL } = require('node:url');

const ran = new Map();
let ts;

function typescriptFrom(typescriptPath) {
  // eslint-disable-next-line global-require -- only TypeScript projects pay for loading it
  ts ??= require(typescriptPath);
  return ts;
}

/** ES module syntax at the top level (`import x from`, `export …`): an override with it is compiled to CommonJS. */
const ESM_SYNTAX = /^\s*(import\s*[\w*{'"]|export\s)/m;

function compileTs(typescriptPath, file, text) {
  const t = typescriptFrom(typescriptPath);
  const out = t.transpileModule(text, {
    fileName: file,
    compilerOptions: {
      module: t.ModuleKind.CommonJS,
      target: t.ScriptTarget.ES2022,
      esModuleInterop: true,
      jsx: t.JsxEmit.React,
      sourceMap: false,
      inlineSourceMap: false,
      useDefineForClassFields: true,
    },
    reportDiagnostics: false,
  });
  return out.outputText;
}

const TS_EXT = ['.ts', '.tsx', '.mts', '.cts'];

function install(opts) {
  const overrides = new Map(Object.entries(opts.overrides || {}));
  // An ES module's own `import`s go through Node's ES loader, which never sees an override: with
  // overrides, the overridden modules are compiled to CommonJS, so their imports come back here.
  for (const ext of overrides.size && Module._extensions['.mjs'] ? ['.js', '.mjs'] : ['.js']) {
    const jsLoader = Module._extensions[ext];
    Module._extensions[ext] = function (module, filename) {
      const given = overrides.get(filename);
      if (given === undefined) return jsLoader(module, filename);
      const text = ESM_SYNTAX.test(given) ? compileTs(opts.typescript, filename.replace(/\.m?js$/, '.ts'), given) : given;
      ran.set(filename, text);
      return module._compile(text, filename);
    };
  }
  for (const ext of TS_EXT) {
    Module._extensions[ext] = function (module, filename) {
      const text = compileTs(opts.typescript, filename, overrides.get(filename) ?? fs.readFileSync(filename, 'utf8'));
      ran.set(filename, text);
      return module._compile(text, filename);
    };
  }
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function (request, parent, ...rest) {
    try {
      return resolve.call(this, request, parent, ...rest);
    } catch (e) {
      const m = /^(\.{1,2}\/.*)\.([cm]?)js$/.exec(request);
      if (!m) throw e;
      for (const ext of ['.ts', '.tsx', `.${m[2]}ts`]) {
        try {
          return resolve.call(this, m[1] + ext, parent, ...rest);
        } catch {
          /* try the next */
        }
      }
      throw e;
    }
  };
}

async function load(file) {
  try {
    return require(file);
  } catch (e) {
    if (e && (e.code === 'ERR_REQUIRE_ESM' || e.code === 'ERR_REQUIRE_ASYNC_MODULE')) return import(pathToFileURL(file).href);
    throw e;
  }
}

/** The text V8 ran for a file: what a loader compiled, else the file itself. */
function textOf(file) {
  const t = ran.get(file);
  if (t !== undefined) return t;
  return fs.readFileSync(file, 'utf8');
}

module.exports = { install, load, textOf, isTs: (f) => TS_EXT.includes(path.extname(f)) };
