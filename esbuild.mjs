// Bundles the three entry points and the crawler's worker thread. tsc only type-checks (see tsconfig.json).
import { createHash } from 'node:crypto';
import { cpSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { ASSETS_DIR, BUNDLE_ALIAS, BUNDLE_PLUGINS, RUNTIME_EXTERNALS } from './scripts/bundling.mjs';
import { MUTATION_WORKER_EXTERNALS, strykerBundlePlugin } from './scripts/strykerBundle.mjs';

/** A hash of what the engine is built from (server/src/core/engine.ts): a rebuild with other sources is another engine. */
function buildId() {
  const hash = createHash('sha256');
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else hash.update(p).update(readFileSync(p));
    }
  };
  for (const dir of ['server/src', 'schemas']) walk(dir);
  hash.update(readFileSync('package-lock.json'));
  return hash.digest('hex').slice(0, 12);
}

const common = {
  define: { AMTP_BUILD: JSON.stringify(buildId()) },
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  logLevel: 'warning',
  plugins: BUNDLE_PLUGINS,
  external: RUNTIME_EXTERNALS,
  alias: BUNDLE_ALIAS,
};

await Promise.all([
  build({ ...common, entryPoints: ['client/src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] }),
  build({ ...common, entryPoints: ['server/src/server.ts'], outfile: 'dist/server.js' }),
  build({ ...common, entryPoints: ['server/src/cli.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } }),
  // The crawler's Python parsing threads load this file from beside server.js / cli.js.
  build({ ...common, entryPoints: ['server/src/agents/crawler/pyWorker.ts'], outfile: 'dist/pyWorker.js' }),
  // The StrykerJS instrumenter's child process (server/src/mutation/js/instrument.ts): babel loads only when mutation runs.
  build({
    ...common,
    entryPoints: ['server/src/mutation/js/instrumentWorker.ts'],
    outfile: 'dist/mutationWorker.js',
    sourcemap: false,
    minify: true,
    plugins: [strykerBundlePlugin],
    external: MUTATION_WORKER_EXTERNALS,
  }),
]);

// Files the renderers write or run as they are (jest helpers, the Python syntax check): read at run
// time from dist/assets/, next to the bundles (server/src/frameworks/assets.ts).
rmSync('dist/assets', { recursive: true, force: true });
cpSync(ASSETS_DIR, 'dist/assets', { recursive: true });
