// Builds each TypeScript benchmark into bench/.work with esbuild and runs it in its own process.
import { build } from 'esbuild';
import { ASSETS_DIR, BUNDLE_ALIAS, BUNDLE_PLUGINS, RUNTIME_EXTERNALS } from '../scripts/bundling.mjs';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync } from 'node:fs';

const only = process.argv.slice(2);
// scale needs PostgreSQL and Redis (started by scripts/services.mjs), parsers reads large trees: only when asked for by name.
const benches = ['boundary', 'batches', 'scoped', 'mutation', 'scale', 'parsers'].filter((b) =>
  b === 'scale' || b === 'parsers' ? only.includes(b) : !only.length || only.includes(b),
);
for (const name of benches) {
  const outfile = `bench/.work/${name}.cjs`;
  await build({
    entryPoints: [`bench/${name}.ts`],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: RUNTIME_EXTERNALS,
    plugins: BUNDLE_PLUGINS,
    alias: BUNDLE_ALIAS,
    logLevel: 'warning',
  });
  cpSync(ASSETS_DIR, 'bench/.work/assets', { recursive: true });
  // The mutation engine starts the StrykerJS instrumenter's bundle from beside its own (npm run bench builds dist/ first).
  if (existsSync('dist/mutationWorker.js')) cpSync('dist/mutationWorker.js', 'bench/.work/mutationWorker.js');
  const r = spawnSync(process.execPath, ['--expose-gc', outfile], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
// Plain-JS benches: the crawl (bench/crawl.mjs) and the whole offline run (bench/e2e.mjs).
for (const name of ['crawl', 'e2e']) {
  const extra = `bench/${name}.mjs`;
  if ((!only.length || only.includes(name)) && existsSync(extra)) {
    const r = spawnSync(process.execPath, ['--expose-gc', extra], { stdio: 'inherit' });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
}
