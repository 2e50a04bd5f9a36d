// A built file whose source map names sources the package does not ship (superstruct@2.0.2's
// dist/index.mjs → ../src/*.ts, js-sdsl@4.4.2's dist/cjs/*.js → ../../src/*.ts) is the code that
// ran, and the only copy of it there is. Followed, its map sends the coverage to files that do not
// exist, which the product filter then drops: c8's monocart read js-sdsl's files as 0%. So during the
// measured run such a file's `sourceMappingURL` comment is blanked (spaces, same length: offsets
// unchanged), and Node's source-map cache, c8, monocart, vite and babel all read it as itself, as
// nyc --all counts the files on disk; the files are put back byte for byte, mtime included, after.
// Which maps those are is AMTP's definition (server/src/coverage/shippedMaps.ts), as the product files
// are (product.mjs): the same files on both sides, each measured by its own tool.
import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { namesMissingSources, shippedMapOf } from '../../server/src/coverage/shippedMaps.ts';

const MAP_COMMENT = /(?:\/\/|\/\*)[#@]\s*sourceMappingURL=[^\n]*\s*$/;

/**
 * Blanks the map comment of each of the `product` files (relative to `dir`) whose map names sources
 * that are not shipped; returns those files and the function that puts them back.
 */
export function blankUnshippedMaps(dir, product) {
  const saved = [];
  for (const rel of product) {
    const path = join(dir, rel);
    const shipped = shippedMapOf(path);
    if (!shipped || !namesMissingSources(shipped.map, shipped.url)) continue;
    const text = readFileSync(path, 'utf8');
    const st = statSync(path);
    saved.push({ path, text, atime: st.atimeMs / 1000, mtime: st.mtimeMs / 1000 });
    writeFileSync(
      path,
      text.replace(MAP_COMMENT, (m) => m.replace(/[^\n]/g, ' ')),
    );
  }
  return {
    files: saved.map((s) => s.path),
    restore() {
      for (const s of saved) {
        writeFileSync(s.path, s.text);
        utimesSync(s.path, s.atime, s.mtime);
      }
    },
  };
}
