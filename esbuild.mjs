// Bundles the three entry points. tsc only type-checks (see tsconfig.json).
import { build } from 'esbuild';

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  logLevel: 'warning',
  // Loaded from node_modules at run time, never bundled: the TypeScript compiler API is large (the
  // verifier loads it); oxc-parser finds its per-platform native binary next to itself; the tree-sitter
  // runtime and the Python grammar find their .wasm files next to themselves (see package.json `files`).
  external: ['typescript', 'oxc-parser', 'web-tree-sitter', 'tree-sitter-python'],
};

await Promise.all([
  build({ ...common, entryPoints: ['client/src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] }),
  build({ ...common, entryPoints: ['server/src/server.ts'], outfile: 'dist/server.js' }),
  build({ ...common, entryPoints: ['server/src/cli.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } }),
]);
