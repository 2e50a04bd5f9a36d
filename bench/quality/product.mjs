// Which files of a package are its product, the denominator of the bench's --all coverage:
// - every code file (.js .mjs .cjs .ts .mts .cts, or .py), without type declarations and minified
//   bundles, outside node_modules, dot folders, test/bench/example/docs/script folders, test files
//   (*.test.*, *.spec.*, test_*.py, conftest.py), tool configs (*.config.*, gulpfile…) and the
//   files AMTP wrote;
// - a package that ships its product twice counts it once: src/ beside a built copy (dist/, lib/…),
//   or two builds (`subject.copies`, e.g. lib/ and es6/). The copy the kept tests reached most is
//   counted, the others are left out (the row says which): jest and vitest transform what they load
//   and cannot map a built file back to its TypeScript source, so "src only" would read 0 for tests
//   that exercise the built copy.
import { readdirSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';

const CODE_JS = new Set(['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts']);
const NOT_PRODUCT_DIR =
  /^(node_modules|tests?|__tests__|__pycache__|specs?|testing|bench|benchmarks?|examples?|demo|docs?|coverage|scripts|fixtures|types|typings)$|\.(egg|dist)-info$|^\./;
const NOT_PRODUCT_FILE =
  /\.d\.[cm]?ts$|\.min\.js$|[._-](test|spec)s?\.[^.]+$|^test_.*\.py$|_test\.py$|^conftest\.py$|\.config\.[cm]?[jt]s$|^(gulpfile|Gruntfile|karma\.conf|bench|benchmark|example|setup)\.[cm]?[jt]s$|^setup\.py$/;

function walk(root, rel, python, out) {
  for (const name of readdirSync(join(root, rel)).sort()) {
    const path = rel ? `${rel}/${name}` : name;
    const full = join(root, path);
    if (statSync(full).isDirectory()) {
      if (!NOT_PRODUCT_DIR.test(name)) walk(root, path, python, out);
    } else if ((python ? extname(name) === '.py' : CODE_JS.has(extname(name))) && !NOT_PRODUCT_FILE.test(name)) out.push(path);
  }
  return out;
}

/** Product files, relative to the package folder, sorted; `written` are the test files AMTP wrote. */
export function productFiles(dir, python, written = []) {
  return walk(dir, '', python, []).filter((f) => !written.includes(f));
}

/** Groups of alternative copies: the subject's, and src/ against everything else when src/ ships beside built code. */
export function copyGroups(subject, product) {
  const groups = (subject.copies ?? []).map((g) => g.map((prefix) => [prefix]));
  const src = product.filter((f) => f.startsWith('src/'));
  const built = [...new Set(product.filter((f) => !f.startsWith('src/')).map((f) => (f.includes('/') ? `${f.split('/')[0]}/` : f)))];
  if (src.length && built.length) groups.unshift([['src/'], built]);
  return groups;
}

/** The prefixes left out: per group, every alternative but the one with the most covered statements (the first on a tie). */
export function leftOutCopies(subject, product, perFile) {
  const out = [];
  const reached = (prefixes) =>
    Object.entries(perFile)
      .filter(([f]) => prefixes.some((p) => f.startsWith(p)))
      .reduce((n, [, c]) => n + c.statements.covered, 0);
  for (const group of copyGroups(subject, product)) {
    const covered = group.map(reached);
    const best = covered.indexOf(Math.max(...covered));
    out.push(...group.filter((_, i) => i !== best).flat());
  }
  return out;
}
