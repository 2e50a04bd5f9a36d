// Files shipped as they are (server/src/frameworks/assets/): jest helpers written into projects, the
// Python syntax check, the characterization harnesses and the network guard. From source they sit next to this file; in the bundles, esbuild.mjs copies
// them to dist/assets/, next to dist/cli.js and dist/server.js (esbuild keeps `__dirname` the bundle's).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const cache = new Map<string, string>();

export function asset(name: 'amtp.jest.config.cjs' | 'amtp.jest-ts-transform.cjs' | 'pycheck.py' | 'pytrace.py'): string {
  let text = cache.get(name);
  if (text === undefined) {
    text = readFileSync(join(__dirname, 'assets', name), 'utf8');
    cache.set(name, text);
  }
  return text;
}

/** The path of a shipped file that a child process loads itself (the characterization harnesses, the network guard, the V8 sources recorder). */
export function assetFile(
  name:
    | 'amtp.char-harness.py'
    | 'amtp.char-nonet.cjs'
    | 'amtp.search-child.cjs'
    | 'amtp.search-guard.cjs'
    | 'amtp.mocha-report.cjs'
    | 'amtp.mocha-json.cjs'
    | 'amtp.v8-sources.cjs'
    | 'amtp.v8-pertest.cjs'
    | 'amtp.v8-pertest-mocha.cjs',
): string {
  return join(__dirname, 'assets', name);
}

/** Where a shipped asset that a child process loads itself is (AMTP's module loader, for `node --import`). */
export function assetUrl(name: 'amtp.node-loader.mjs'): string {
  return pathToFileURL(join(__dirname, 'assets', name)).href;
}
