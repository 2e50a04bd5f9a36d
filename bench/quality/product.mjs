// Which files of a package are its product, the denominator of the bench's --all coverage. One
// definition with AMTP's own figure (so the two can be compared at all), taken from AMTP's code:
// - every code file (.js .mjs .cjs .ts .mts .cts, or .py) outside node_modules and dot folders that
//   server/src/agents/crawler/targets.ts calls product code (not a type declaration, minified bundle,
//   test or test helper, fixture, benchmark, example, script, tool or build config), less the files
//   AMTP wrote;
// - a module the package ships more than once (src/ beside a build, a CommonJS and an ES build)
//   counts once (server/src/coverage/copies.ts): the copy the kept tests reached most, the others are
//   left out (the row says which). jest and vitest transform what they load and cannot map a built
//   file back to its TypeScript source, so "src only" would read 0 for tests of the built copy.
import { readdirSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { isProductPath } from '../../server/src/agents/crawler/targets.ts';
import { declaredBuilds, leftOutCopies as copiesLeftOut } from '../../server/src/coverage/copies.ts';

const CODE_JS = new Set(['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts']);
/** never walked: installed packages, dot folders, Python's build metadata */
const NOT_WALKED = /^(node_modules|__pycache__)$|\.(egg|dist)-info$|^\./;

function walk(root, rel, python, out) {
  for (const name of readdirSync(join(root, rel)).sort()) {
    const path = rel ? `${rel}/${name}` : name;
    const full = join(root, path);
    if (statSync(full).isDirectory()) {
      if (!NOT_WALKED.test(name)) walk(root, path, python, out);
    } else if ((python ? extname(name) === '.py' : CODE_JS.has(extname(name))) && isProductPath(path)) out.push(path);
  }
  return out;
}

/** Product files, relative to the package folder, sorted; `written` are the test files AMTP wrote. */
export function productFiles(dir, python, written = []) {
  return walk(dir, '', python, []).filter((f) => !written.includes(f));
}

/** The copies left out: of each module shipped more than once, every file but the one with the most covered statements. */
export function leftOutCopies(dir, product, perFile) {
  return copiesLeftOut(product, (f) => perFile[f]?.statements.covered ?? 0, declaredBuilds(dir));
}
