// The mutation engine's files shipped as they are: from source they sit in
// server/src/frameworks/assets/; in the bundles esbuild.mjs copies them to dist/assets/, next to
// dist/cli.js and dist/server.js (esbuild keeps `__dirname` the bundle's).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type MutationAssetName = 'amtp.mutant-runtime.cjs' | 'amtp_mutate.py' | 'amtp_mutation_plugin.py';

export function mutationAssetPath(name: MutationAssetName): string {
  const fromSource = join(__dirname, '..', 'frameworks', 'assets', name);
  return existsSync(fromSource) ? fromSource : join(__dirname, 'assets', name);
}

const cache = new Map<string, string>();

export function mutationAsset(name: MutationAssetName): string {
  let text = cache.get(name);
  if (text === undefined) {
    text = readFileSync(mutationAssetPath(name), 'utf8');
    cache.set(name, text);
  }
  return text;
}
