// One module shipped more than once counts once (server/src/coverage/copies.ts): TypeScript source
// beside its builds, a CommonJS and an ES build by name or as package.json declares them; the copy
// the tests reached most is the one counted. AMTP's figure and the bench's independent one use it.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyGroups, declaredBuilds, leftOutCopies } from '../../server/src/coverage/copies';

describe('copies of one module: counted once', () => {
  it('groups files under build folders by the module they hold, never a root file by name alone', () => {
    assert.deepEqual(copyGroups(['src/index.ts', 'dist/index.js', 'esm/index.js', 'src/util.ts']), [
      ['dist/index.js', 'esm/index.js', 'src/index.ts'],
    ]);
    assert.deepEqual(copyGroups(['dist/index.cjs.js', 'dist/index.es.js']), [['dist/index.cjs.js', 'dist/index.es.js']]);
    assert.deepEqual(copyGroups(['lib/a/b.js', 'es6/a/b.js', 'lib/c.js']), [['es6/a/b.js', 'lib/a/b.js']]);
    assert.deepEqual(copyGroups(['index.js', 'lib/index.js', 'utils.js']), [], 'an entry beside lib/ usually requires it');
  });

  it("joins the builds package.json declares of one entry (main/module, an exports subpath's conditions)", () => {
    const dir = mkdtempSync(join(tmpdir(), 'amtp-copies-'));
    try {
      writeFileSync(
        join(dir, 'package.json'),
        JSON.stringify({
          main: 'lib/index.js',
          module: 'es6/index.js',
          exports: { '.': { import: './index.mjs', require: './lib/index.js' } },
        }),
      );
      const declared = declaredBuilds(dir);
      assert.deepEqual(declared, [
        ['lib/index.js', 'es6/index.js'],
        ['index.mjs', 'lib/index.js'],
      ]);
      assert.deepEqual(copyGroups(['index.mjs', 'lib/index.js', 'es6/index.js', 'lib/errors.js'], declared), [
        ['es6/index.js', 'index.mjs', 'lib/index.js'],
      ]);
      assert.deepEqual(declaredBuilds(join(dir, 'none')), [], 'no package.json, nothing declared');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves out every copy but the one the tests reached most (the first on a tie)', () => {
    const product = ['src/index.ts', 'dist/index.js', 'esm/index.js', 'src/util.ts'];
    assert.deepEqual(
      leftOutCopies(product, (f) => (f === 'dist/index.js' ? 5 : 0)),
      ['esm/index.js', 'src/index.ts'],
    );
    assert.deepEqual(
      leftOutCopies(product, () => 0),
      ['esm/index.js', 'src/index.ts'],
    );
  });
});
