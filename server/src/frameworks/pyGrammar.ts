// Python's grammar for the crawler: tree-sitter compiled to WebAssembly, so nothing native and no
// Python interpreter is needed. The runtime (web-tree-sitter) and the grammar (tree-sitter-python,
// which ships its .wasm in the npm package) are loaded from node_modules the first time a Python
// file is analysed (~25 ms), never on a JS-only crawl. In frameworks/, below agents/, so the
// renderers and the verifier can use it too.
import type { Language, Parser } from 'web-tree-sitter';

export interface PyParser {
  parser: Parser;
  language: Language;
}

let loaded: Promise<PyParser> | undefined;

export function loadPython(): Promise<PyParser> {
  loaded ??= load();
  loaded.catch(() => (loaded = undefined)); // a later crawl may try again
  return loaded;
}

async function load(): Promise<PyParser> {
  const ts = await import('web-tree-sitter');
  const { Parser: P, Language: L } = (ts as unknown as { default?: typeof ts }).default ?? ts;
  // The runtime's own .wasm sits next to its script; say so explicitly, since bundling moves the script.
  const runtimeWasm = require.resolve('web-tree-sitter/web-tree-sitter.wasm');
  await P.init({ locateFile: () => runtimeWasm });
  const language = await L.load(require.resolve('tree-sitter-python/tree-sitter-python.wasm'));
  const parser = new P();
  parser.setLanguage(language);
  return { parser, language };
}
