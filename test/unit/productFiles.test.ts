// The files coverage is counted over (server/src/verifier/productFiles.ts): every product source file
// of the runner's language the crawler found, without typings, minified copies and tests; a scoped
// run's own files only; and the files no kept test reaches.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { KeyFile } from '../../server/src/contracts/types';
import { measuredFiles, productFilesOf, untestedFiles } from '../../server/src/verifier/productFiles';

const kf = (path: string): KeyFile => ({ path, language: 'JavaScript', rank: 1, symbols: [] });
const map = {
  key_files: [
    'index.js',
    'lib/a.mjs',
    'src/b.ts',
    'types/index.d.ts',
    'dist/x.min.js',
    'test/helper.js',
    'c.spec.js',
    'pkg/mod.py',
    'tests/test_x.py',
  ].map(kf),
};

describe('product files: the denominator of coverage', () => {
  it('JavaScript/TypeScript runners count the JS/TS product files; pytest the Python ones', () => {
    assert.deepEqual(productFilesOf(map, 'mocha'), ['index.js', 'lib/a.mjs', 'src/b.ts']);
    assert.deepEqual(productFilesOf(map, 'pytest'), ['pkg/mod.py']);
  });

  it('with the workspace, every other product source file of the package counts too (built copies are left out later: copies.ts)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'amtp-product-'));
    try {
      for (const f of [
        'src/index.ts',
        'src/a.ts',
        'src/deep/b.ts',
        'src/a.test.ts',
        'src/c.d.ts',
        'dist/index.js',
        'main.js',
        'lib/x.js',
        'test/t.js',
      ]) {
        mkdirSync(dirname(join(dir, f)), { recursive: true });
        writeFileSync(join(dir, f), 'export const x = 1;\n');
      }
      // src/index.ts only re-exports (no key file); lib/ holds no key file; dist/ is not shipped (no
      // package.json names it), so the walk leaves it out as a build output.
      const keys = { key_files: ['src/a.ts', 'main.js'].map(kf) };
      assert.deepEqual(productFilesOf(keys, 'vitest', undefined, dir), [
        'lib/x.js',
        'main.js',
        'src/a.ts',
        'src/deep/b.ts',
        'src/index.ts',
      ]);
      assert.deepEqual(productFilesOf(keys, 'vitest'), ['main.js', 'src/a.ts']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a scoped run counts the files in its scope only', () => {
    assert.deepEqual(productFilesOf(map, 'jest', { only: ['lib/a.mjs'], files: [{ path: 'lib/a.mjs' }] }), ['lib/a.mjs']);
  });

  it("the measured files are the tests' targets and the product files; untested ones have no covered unit", () => {
    assert.deepEqual(measuredFiles(['x.js', 'index.js'], ['index.js', 'lib/a.mjs']), ['x.js', 'index.js', 'lib/a.mjs']);
    const covered = new Set(['index.js:s@2:0', 'index.js:b@4:2', 'pkg/mod.py:l3']);
    assert.deepEqual(untestedFiles(['index.js', 'lib/a.mjs', 'pkg/mod.py', 'src/b.ts'], covered), ['lib/a.mjs', 'src/b.ts']);
  });
});
