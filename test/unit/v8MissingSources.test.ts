// A bundle's source map that names sources the package does not ship (superstruct@2.0.2's dist maps to
// `../src/*.ts`): converting its coverage counts nothing there instead of failing the whole run with
// ENOENT (the verifier's coverage read every mapped source from disk).
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convert } from '../../server/src/coverage/v8';

describe('coverage/v8: a map to sources that are not there', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'amtp-v8map-'));
    mkdirSync(join(dir, 'dist'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const withContent of [false, true])
    it(`counts nothing for the missing source and does not throw (${withContent ? 'with' : 'without'} sourcesContent)`, async () => {
      const code = 'export const a = 1;\n';
      const file = join(dir, 'dist/index.mjs');
      writeFileSync(file, code);
      const map = {
        version: 3,
        file: 'index.mjs',
        sources: ['../src/missing.ts'],
        names: [],
        mappings: 'AAAA',
        ...(withContent ? { sourcesContent: [code] } : {}),
      };
      const data = await convert(
        file,
        [{ functionName: '', isBlockCoverage: true, ranges: [{ startOffset: 0, endOffset: code.length, count: 1 }] }],
        {
          code,
          wrapper: 0,
          data: map,
        },
      );
      assert.deepEqual(Object.keys(data), []);
    });
});
