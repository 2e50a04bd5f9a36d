// The MCP response cache's shared level on a real Redis 7 (scripts/services.mjs): a tree another
// process listed is served from Redis; file contents are never written there; a flush is a miss.
import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Redis } from 'ioredis';
import { ResponseCache } from '../../server/src/mcp/cache';
import { readWorkspaceFile } from '../../server/src/mcp/readFile';
import { searchWorkspaceShared } from '../../server/src/mcp/search';
import { treeTool } from '../../server/src/mcp/treeTool';
import { KEY_PREFIX, connectRedis, sharedToolCache } from '../../server/src/store/redis';
import { useServices } from '../helpers/services';

const svc = useServices({ postgres: false });

describe('shared MCP response cache (Redis)', function () {
  this.timeout(60_000);
  let ws: string;
  let redis: Redis;
  beforeEach(async () => {
    ws = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'amtp-shared-cache-')));
    await fsp.writeFile(path.join(ws, 'a.js'), 'const token = "sk-live-0123456789abcdef0123456789";\nmodule.exports = 1;\n');
    redis = await connectRedis(svc.redis);
    await redis.flushall();
  });
  afterEach(async () => {
    redis.disconnect();
    await fsp.rm(ws, { recursive: true, force: true });
  });

  /** The shared level is written behind: wait until Redis holds `n` cache keys. */
  const written = async (n: number) => {
    const end = Date.now() + 10_000;
    while ((await redis.keys(`${KEY_PREFIX}mcp:*`)).length < n) {
      if (Date.now() > end) throw new Error(`Redis never held ${n} cache keys`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  it("serves another process's tree and redacted search results; never a file's contents", async () => {
    const first = new ResponseCache({ shared: sharedToolCache(redis, ws) });
    const tree = await treeTool(ws, {}, {}, first);
    const found = await searchWorkspaceShared(ws, { query: 'module' }, {}, first, (t) => t.replace(/sk-live-\w+/g, '[REDACTED]'));
    await readWorkspaceFile(ws, { path: 'a.js' }, first);
    await written(2);
    const keys = await redis.keys(`${KEY_PREFIX}mcp:*`);
    assert.equal(keys.length, 2, 'the tree and the search, not the file');
    for (const k of keys) assert.doesNotMatch((await redis.get(k))!, /sk-live/);

    const second = new ResponseCache({ shared: sharedToolCache(redis, ws) });
    assert.deepEqual(await treeTool(ws, {}, {}, second), tree);
    assert.deepEqual(
      await searchWorkspaceShared(ws, { query: 'module' }, {}, second, (t) => t.replace(/sk-live-\w+/g, '[REDACTED]')),
      found,
    );
    assert.equal(second.stats().sharedHits, 2);
  });

  it('a flushed Redis is a miss, and the answer is still right', async () => {
    const one = new ResponseCache({ shared: sharedToolCache(redis, ws) });
    const tree = await treeTool(ws, {}, {}, one);
    await written(1);
    await redis.flushall();
    const two = new ResponseCache({ shared: sharedToolCache(redis, ws) });
    assert.deepEqual(await treeTool(ws, {}, {}, two), tree);
    assert.equal(two.stats().sharedHits, 0);
  });
});
