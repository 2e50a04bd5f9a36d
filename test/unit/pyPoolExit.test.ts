import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

const POOL = path.resolve(__dirname, '..', '..', 'server/src/agents/crawler/pyPool.ts');

/** Exit status of a fresh node that starts the Python parsing thread and does nothing else (null: killed at the timeout). */
function exitAfterWarm(pool: string): number | null {
  const r = spawnSync(process.execPath, ['--require', require.resolve('tsx/cjs'), '-e', `require(${JSON.stringify(pool)}).warmPyPool()`], {
    timeout: 30_000,
    encoding: 'utf8',
  });
  return r.status;
}

describe('Python parsing thread', () => {
  it('an idle one does not keep the process alive (a crawl that parsed no Python used to hang its process)', function () {
    this.timeout(60_000);
    assert.equal(exitAfterWarm(POOL), 0);
  });
});
