import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ResponseCache } from '../../server/src/mcp/cache';
import { readWorkspaceFile } from '../../server/src/mcp/readFile';

describe('mcp ResponseCache', () => {
  it('evicts the least recently used entry beyond maxEntries', () => {
    const c = new ResponseCache<string>({ maxEntries: 2 });
    c.set('a', 'A', 1);
    c.set('b', 'B', 1);
    assert.equal(c.get('a'), 'A'); // a is now most recent
    c.set('c', 'C', 1);
    assert.equal(c.get('b'), undefined);
    assert.equal(c.get('a'), 'A');
    assert.equal(c.get('c'), 'C');
    assert.deepEqual({ ...c.stats(), bytes: undefined }, { hits: 3, misses: 1, entries: 2, bytes: undefined, evictions: 1 });
  });

  it('bounds the byte total and refuses values larger than the whole budget', () => {
    const c = new ResponseCache<string>({ maxBytes: 10 });
    c.set('a', 'x', 6);
    c.set('b', 'y', 6);
    assert.equal(c.get('a'), undefined);
    assert.equal(c.stats().bytes, 6);
    c.set('huge', 'z', 11);
    assert.equal(c.get('huge'), undefined);
    assert.equal(c.get('b'), 'y');
  });

  it('builds the same key for the same args in any key order', () => {
    assert.equal(
      ResponseCache.key('t', { a: 1, b: [1, { c: 2, d: 3 }] }, 'v'),
      ResponseCache.key('t', { b: [1, { d: 3, c: 2 }], a: 1 }, 'v'),
    );
    assert.notEqual(ResponseCache.key('t', { a: 1 }, 'v1'), ResponseCache.key('t', { a: 1 }, 'v2'));
  });

  it('never holds handoff payloads', () => {
    const c = new ResponseCache();
    assert.throws(() => c.set('k', { artifact_id: 'x', payload: {} }, 10), /handoff/);
  });

  it('invalidates read_file results when a file changes size or mtime', async () => {
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'amtp-cache-'));
    try {
      const f = path.join(dir, 'a.txt');
      await fsp.writeFile(f, 'one');
      const c = new ResponseCache();
      assert.equal((await readWorkspaceFile(dir, { path: 'a.txt' }, c)).content, 'one');
      assert.equal((await readWorkspaceFile(dir, { path: 'a.txt' }, c)).content, 'one');
      assert.deepEqual([c.stats().hits, c.stats().misses], [1, 1]);
      await fsp.writeFile(f, 'three'); // size changes
      assert.equal((await readWorkspaceFile(dir, { path: 'a.txt' }, c)).content, 'three');
      await fsp.writeFile(f, 'THREE'); // same size: only the mtime tells
      const later = new Date(Date.now() + 5000);
      await fsp.utimes(f, later, later);
      assert.equal((await readWorkspaceFile(dir, { path: 'a.txt' }, c)).content, 'THREE');
      assert.deepEqual([c.stats().hits, c.stats().misses], [1, 3]);
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });
});
