import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { walkTree } from '../../server/src/mcp/walk';

// Past 2048 files the walk's lstat calls move to a helper thread (lstatBatches.ts); the result must
// be the same as a walk that stats every file itself, and symlinks are still listed, never followed.
describe('repo.tree walk on a tree large enough for the lstat helper thread', function () {
  this.timeout(60_000);
  let root: string;
  before(async () => {
    root = await fsp.mkdtemp(path.join(os.tmpdir(), 'amtp-walk-'));
    for (let d = 0; d < 50; d++) {
      const dir = path.join(root, `d${String(d).padStart(2, '0')}`);
      await fsp.mkdir(dir);
      await Promise.all(Array.from({ length: 100 }, (_, f) => fsp.writeFile(path.join(dir, `f${f}.txt`), 'x'.repeat(d + f))));
    }
    await fsp.symlink('/etc/passwd', path.join(root, 'd00', 'outside.txt'));
  });
  after(() => fsp.rm(root, { recursive: true, force: true }));

  it('sizes, byte total, order and fingerprint match the files on disk', async () => {
    const w = walkTree(root, { gitignore: 'never' });
    assert.equal(w.files, 5000);
    const files = w.entries.filter((e) => e.type === 'file');
    for (const e of [files[0], files[2500], files[4999]]) assert.equal(e.size, (await fsp.lstat(path.join(root, e.path))).size, e.path);
    const expected = Array.from({ length: 50 }, (_, d) => Array.from({ length: 100 }, (__, f) => d + f))
      .flat()
      .reduce((a, b) => a + b, 0);
    assert.equal(w.bytes, expected);
    assert.deepEqual(
      w.entries.find((e) => e.path === 'd00/outside.txt'),
      { path: 'd00/outside.txt', type: 'symlink', size: 0 },
    );
    const sorted = [...w.entries.map((e) => (e.type === 'dir' ? `${e.path}/` : e.path))].sort();
    assert.deepEqual(
      w.entries.map((e) => (e.type === 'dir' ? `${e.path}/` : e.path)),
      sorted,
    );
    assert.equal(walkTree(root, { gitignore: 'never' }).fingerprint, w.fingerprint, 'same tree, same key');
    await fsp.writeFile(path.join(root, 'd49', 'f99.txt'), 'changed');
    assert.notEqual(walkTree(root, { gitignore: 'never' }).fingerprint, w.fingerprint, 'a changed size changes the key');
  });

  it('names only (sizes: false) lists the same entries without sizes', () => {
    const sized = walkTree(root, { gitignore: 'never' });
    const names = walkTree(root, { gitignore: 'never', sizes: false });
    assert.deepEqual(
      names.entries.map((e) => e.path),
      sized.entries.map((e) => e.path),
    );
    assert.equal(names.entries.find((e) => e.type === 'file')!.size, undefined);
    assert.equal(names.bytes, 0);
  });
});

describe('repo.tree walk: build folders a package.json names', () => {
  it("walks dist/ when main or exports point into it; build/ and a nested package's unnamed out/ stay skipped", async () => {
    const root = await fsp.mkdtemp(path.join(os.tmpdir(), 'amtp-walk-dist-'));
    try {
      const files: Record<string, string> = {
        'package.json': JSON.stringify({ name: 'p', exports: { '.': { import: './dist/index.mjs', require: './dist/index.cjs' } } }),
        'dist/index.cjs': 'exports.a = 1;\n',
        'dist/index.mjs': 'export const a = 1;\n',
        'build/junk.js': 'exports.b = 1;\n',
        'node_modules/x/index.js': '',
        'packages/q/package.json': JSON.stringify({ name: 'q', main: 'lib/index.js' }),
        'packages/q/lib/index.js': 'exports.q = 1;\n',
        'packages/q/out/gen.js': 'exports.g = 1;\n',
        'broken/package.json': '{ not json',
        'broken/dist/x.js': '',
      };
      for (const [rel, content] of Object.entries(files)) {
        await fsp.mkdir(path.dirname(path.join(root, rel)), { recursive: true });
        await fsp.writeFile(path.join(root, rel), content);
      }
      const listed = walkTree(root, { gitignore: 'never' })
        .entries.filter((e) => e.type === 'file')
        .map((e) => e.path)
        .sort();
      assert.deepEqual(listed, [
        'broken/package.json',
        'dist/index.cjs',
        'dist/index.mjs',
        'package.json',
        'packages/q/lib/index.js',
        'packages/q/package.json',
      ]);
    } finally {
      await fsp.rm(root, { recursive: true, force: true });
    }
  });
});
