// Python's grammar: tree-sitter compiled to WebAssembly, so nothing native and no Python interpreter
// is needed. The runtime (web-tree-sitter) and the grammar (tree-sitter-python, which ships its .wasm
// in the npm package) are loaded from node_modules once per thread (~25 ms). Loading is asynchronous
// (WebAssembly), parsing is not: each process's entry point (cli/main.ts, server.ts, the crawler's
// agents/crawler/pyWorker.ts) awaits loadPython() before any command runs, and the synchronous readers
// (frameworks/pyTree.ts) take the loaded parser from pythonParser().
import type { Language, Parser } from 'web-tree-sitter';

export interface PyParser {
  parser: Parser;
  language: Language;
}

let loading: Promise<PyParser> | undefined;
let loaded: PyParser | undefined;
let failure: Error | undefined;

export function loadPython(): Promise<PyParser> {
  loading ??= load().then(
    (py) => (loaded = py),
    (e: Error) => {
      loading = undefined; // a later command may try again
      failure = e;
      throw e;
    },
  );
  return loading;
}

/** The loaded parser; throws, naming the missing preload, when no entry point awaited loadPython(). */
export function pythonParser(): PyParser {
  if (loaded) return loaded;
  throw new Error(
    failure
      ? `the Python grammar (tree-sitter-python) did not load: ${failure.message}`
      : 'the Python grammar is not loaded: the entry point that led here must await loadPython() (frameworks/pyGrammar.ts) first',
  );
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
