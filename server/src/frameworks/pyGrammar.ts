// Python's grammar: tree-sitter compiled to WebAssembly, so nothing native and no Python interpreter
// is needed. The runtime (web-tree-sitter) and the grammar (tree-sitter-python, which ships its .wasm
// in the npm package) are loaded from node_modules once per thread (~25 ms). Loading is asynchronous
// (WebAssembly), parsing is not: each process's entry point (cli/main.ts, server.ts, the crawler's
// agents/crawler/pyWorker.ts) awaits loadPython() before any command runs, and the synchronous readers
// (frameworks/pyTree.ts) take the loaded parser from pythonParser().
import type { Language, Parser } from 'web-tree-sitter';
import { preloaded } from '../util/preloaded';

export interface PyParser {
  parser: Parser;
  language: Language;
}

const python = preloaded(load, {
  what: 'the Python grammar',
  pkg: 'tree-sitter-python',
  preload: 'loadPython() (frameworks/pyGrammar.ts)',
});

export function loadPython(): Promise<PyParser> {
  return python.load();
}

/** The loaded parser; throws, naming the missing preload, when no entry point awaited loadPython(). */
export function pythonParser(): PyParser {
  return python.get();
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
