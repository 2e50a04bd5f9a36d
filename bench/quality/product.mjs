// Which files of a package are its product, the denominator of the bench's --all coverage. One
// definition with AMTP's own figure (so the two can be compared at all), taken from AMTP's code:
// - the files AMTP's own figure counts (server/src/verifier/productFiles.ts productFilesOf): every
//   code file (.js .jsx .ts .tsx and their .m/.c forms, or .py) AMTP's walk sees (server/src/mcp/walk.ts)
//   that server/src/agents/crawler/targets.ts calls product code (not a type declaration, minified
//   bundle, test or test helper, fixture, benchmark, example, script, tool or build config), outside
//   dot folders and Python's build metadata, less the files AMTP wrote. The walk counts a build folder
//   (dist/, build/, out/) only where package.json's main, module, bin or exports point into it: a
//   browser bundle in dist/ beside the package's entry (browserify's dist/tinyemitter.js of index.js)
//   is built output, not the package's source; counting it read tiny-emitter's kept tests as 31% where
//   they cover 94% of index.js. The report names such folders per package (leftOutBuilds);
// - a module the package ships more than once (src/ beside a build, a CommonJS and an ES build)
//   counts once (server/src/coverage/copies.ts): the copy the kept tests reached most, the others are
//   left out (the row says which). jest and vitest transform what they load and cannot map a built
//   file back to its TypeScript source, so "src only" would read 0 for tests of the built copy.
import { readdirSync } from 'node:fs';
import { extname, join } from 'node:path';
import { isProductPath } from '../../server/src/agents/crawler/targets.ts';
import { declaredBuilds, leftOutCopies as copiesLeftOut } from '../../server/src/coverage/copies.ts';
import { DEFAULT_SKIP_DIRS } from '../../server/src/mcp/ignoreRules.ts';
import { productFilesOf } from '../../server/src/verifier/productFiles.ts';

const CODE_JS = new Set(['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts']);
/** never counted: Python's build metadata and dot folders (the walk skips node_modules and caches) */
const NOT_WALKED = /(?:^|\/)[^/]+\.(?:egg|dist)-info\/|(?:^|\/)\./;

/** Product files, relative to the package folder, sorted: AMTP's own (verifier/productFiles.ts), less `written`, the test files AMTP wrote. */
export function productFiles(dir, python, written = []) {
  return productFilesOf({ key_files: [] }, python ? 'pytest' : 'mocha', undefined, dir).filter(
    (f) => !NOT_WALKED.test(f) && !written.includes(f),
  );
}

/** The copies left out: of each module shipped more than once, every file but the one with the most covered statements. */
export function leftOutCopies(dir, product, perFile) {
  return copiesLeftOut(product, (f) => perFile[f]?.statements.covered ?? 0, declaredBuilds(dir));
}

/** Build folders at the package's root the walk left out (no entry of package.json points into them) that hold code files. */
export function leftOutBuilds(dir, product) {
  const hasCode = (rel) =>
    readdirSync(join(dir, rel), { recursive: true }).some((f) => CODE_JS.has(extname(String(f))) && isProductPath(`${rel}/${f}`));
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && DEFAULT_SKIP_DIRS.has(d.name) && !d.name.startsWith('.') && d.name !== 'node_modules')
    .map((d) => d.name)
    .filter((name) => !product.some((f) => f.startsWith(`${name}/`)) && hasCode(name))
    .sort();
}
