// AMTP's own module loader for the test runs it makes (docs/verifier.md, "Load what the project
// loads"): `node --import <this file>` registers ./amtp.node-hooks.mjs, which
// - runs TypeScript (.ts, .mts, .tsx) through the TypeScript compiler AMTP ships (transpile only, as
//   tsx and ts-jest's isolatedModules do), when the project has no TypeScript loader of its own;
// - resolves the specifiers TypeScript sources write (`./x.js` for x.ts, `./dir` for dir/index.ts);
// - loads `import data from './x.json'` without `with { type: 'json' }`, which bundlers and
//   TypeScript accept and Node 20 refuses (ERR_IMPORT_ASSERTION_TYPE_MISSING).
import { register } from 'node:module';

register('./amtp.node-hooks.mjs', import.meta.url);
