// The TypeScript compiler API, loaded on first use. It is ~9 MB and kept out of the bundles
// (esbuild.mjs marks it external), so a command that never parses JavaScript never pays for it.
// `require` keeps the callers synchronous: the verifier's test-file edits are plain functions.
import type * as TS from 'typescript';

let loaded: typeof TS | undefined;

export function typescript(): typeof TS {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- ~170 ms to load: only when a file needs it
  loaded ??= require('typescript') as typeof TS;
  return loaded;
}
