// A built file whose shipped source map names sources the package does not ship counts as the code
// that ran, the file itself (superstruct@2.0.2's dist/index.mjs → ../src/*.ts under vitest, js-sdsl@4.4.2's
// dist/cjs/*.js → itself and ../../src/*.ts under mocha). Before, the vitest-run file counted nothing
// (its chained map led only to missing files) and the Node-run one was read through a map that placed
// most of it nowhere.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { V8Range } from '../../server/src/coverage/statements';
import { scriptsToMap, type SourceMapCache } from '../../server/src/coverage/v8';

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
function vlq(n: number): string {
  let v = n < 0 ? (-n << 1) | 1 : n << 1;
  let out = '';
  do {
    let digit = v & 31;
    v >>>= 5;
    if (v > 0) digit |= 32;
    out += B64[digit];
  } while (v > 0);
  return out;
}
/** Encoded mappings from segments [generated column, source, source line, source column] per generated line. */
function encode(lines: number[][][]): string {
  const prev = [0, 0, 0];
  return lines
    .map((segments) => {
      let col = 0;
      return segments
        .map(([c, s, l, sc]) => {
          const out = vlq(c - col) + vlq(s - prev[0]) + vlq(l - prev[1]) + vlq(sc - prev[2]);
          col = c;
          [prev[0], prev[1], prev[2]] = [s, l, sc];
          return out;
        })
        .join(',');
    })
    .join(';');
}
/** One segment at each line's first non-blank column, to `source` at line + `shift` (blank lines map nowhere). */
function lineMap(text: string, source: number, shift: number, from = 0): number[][][] {
  return text.split('\n').map((l, i) => (i < from || !l.trim() ? [] : [[l.search(/\S/), source, i + shift, l.search(/\S/)]]));
}
const covered = (d: { s: Record<string, number>; statementMap: Record<string, { start: { line: number } }> }) =>
  Object.entries(d.s)
    .filter(([, n]) => n > 0)
    .map(([id]) => d.statementMap[id].start.line)
    .sort((a, b) => a - b);
const total = (d: { s: Record<string, number> }) => Object.keys(d.s).length;
const range = (code: string, from: string, to: string, count: number, after = 0): V8Range => {
  const start = code.indexOf(from, after);
  return { startOffset: start, endOffset: code.indexOf(to, start) + to.length, count };
};

/** V8's ranges over code holding BODY once: the script ran, hit(1) ran its first return, miss never ran. */
const bodyRanges = (code: string): V8Range[] => [
  { startOffset: 0, endOffset: code.length, count: 1 },
  range(code, 'function hit', '\n}', 1),
  range(code, '\n  return 2;', '\n}', 0),
  range(code, 'function miss', '\n}', 0),
];
const BODY = `function hit(x) {
  if (x) {
    return 1;
  }
  return 2;
}
function miss() {
  return 3;
}
hit(1);
`;

describe('coverage/v8: a built file whose map names sources not shipped', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'amtp-v8unshipped-'));
    mkdirSync(join(dir, 'dist/cjs'), { recursive: true });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('counts a vitest-run bundle as itself, through vite’s map composed with the shipped one', async () => {
    // dist/index.mjs as shipped, its map to ../src/index.ts (two lines lower there), not shipped
    const dist = `${BODY}export { hit, miss };\n`;
    const file = join(dir, 'dist/index.mjs');
    writeFileSync(file, `${dist}//# sourceMappingURL=index.mjs.map\n`);
    const shipped = { version: 3, file: 'index.mjs', sources: ['../src/index.ts'], names: [], mappings: encode(lineMap(dist, 0, 2)) };
    writeFileSync(join(dir, 'dist/index.mjs.map'), JSON.stringify(shipped));
    // what vite-node ran: one line more at the top, the export rewritten, its map chained to ../src/index.ts
    const transformed = `const __vi_import_0__ = 0;\n${BODY}Object.defineProperty(__vite_ssr_exports__, "hit", { enumerable: true, get(){ return hit }});\n`;
    const vite = { version: 3, sources: ['../src/index.ts'], names: [], mappings: encode(lineMap(transformed, 0, 1, 1)) };
    const wrapper = `'use strict';async (__vite_ssr_import__,__vite_ssr_exports__)=>{{`;
    const code = `${wrapper}${transformed}//# sourceMappingURL=data:application/json;charset=utf-8;base64,${Buffer.from(JSON.stringify(vite)).toString('base64')}\n}}`;
    const ranges = bodyRanges(code);
    const map = await scriptsToMap(
      [{ url: pathToFileURL(file).href, functions: [{ functionName: '', isBlockCoverage: true, ranges }] }],
      {},
      dir,
      ['dist/index.mjs'],
      new Map([[file, [code]]]),
    );
    const d = map[file];
    assert.ok(d, 'the bundle is in the map');
    // if, return 1, return 2, return 3, hit(1): the branch not taken and the function not called are not covered
    assert.equal(total(d), 5);
    assert.deepEqual(covered(d), [2, 3, 10]);
    assert.deepEqual(Object.values(d.b), [[1, 0]]);
  });

  it('reads a Node-run build as itself when its map names itself and a source not shipped', async () => {
    const text = `'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
${BODY}exports.hit = hit;
//# sourceMappingURL=index.js.map
`;
    const file = join(dir, 'dist/cjs/index.js');
    writeFileSync(file, text);
    // babel's map over tsc's output: the preamble from "index.js" (itself), the rest from ../../src/index.ts
    const segments = lineMap(text, 1, 0).map((s, i) => (i < 2 ? s.map(([c, , l, sc]) => [c, 0, l, sc]) : s));
    const data = {
      version: 3,
      sources: ['index.js', '../../src/index.ts'],
      sourcesContent: [null, BODY],
      names: [],
      mappings: encode(segments.slice(0, -2)),
    };
    writeFileSync(join(dir, 'dist/cjs/index.js.map'), JSON.stringify(data));
    const url = pathToFileURL(file).href;
    const cache: SourceMapCache = { [url]: { data, lineLengths: text.split('\n').map((l) => l.length) } };
    const ranges = bodyRanges(text);
    const map = await scriptsToMap(
      [{ url, functions: [{ functionName: '', isBlockCoverage: true, ranges }] }],
      cache,
      dir,
      ['dist/cjs/index.js'],
      new Map(),
    );
    const d = map[file];
    // defineProperty, if, return 1, return 2, return 3, hit(1), exports.hit = hit
    assert.equal(total(d), 7);
    assert.deepEqual(covered(d), [2, 4, 5, 12, 13]);
  });
});
