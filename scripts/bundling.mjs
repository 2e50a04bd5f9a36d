// What every esbuild bundle of the server code shares (esbuild.mjs, bench/run.mjs, bench/crawl.mjs).
import { precompiledValidators } from './precompiledValidators.mjs';

/**
 * Loaded from node_modules at run time, never bundled (package.json `files` ships them in the .vsix):
 * the TypeScript compiler API is large and only the verifier needs it; oxc-parser finds its
 * per-platform native binary (or its WebAssembly build) next to itself; the tree-sitter runtime and the
 * Python grammar find their .wasm files next to themselves.
 */
export const RUNTIME_EXTERNALS = ['typescript', 'oxc-parser', 'web-tree-sitter', 'tree-sitter-python', 'pg-native'];

export const BUNDLE_PLUGINS = [precompiledValidators];

/** jsonc-parser's UMD entry requires its parts at run time, which a bundle cannot see; its ESM build is static. */
export const BUNDLE_ALIAS = { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' };

/** Where the renderers' asset files are, for bundles to copy next to themselves (server/src/frameworks/assets.ts). */
export const ASSETS_DIR = 'server/src/frameworks/assets';
