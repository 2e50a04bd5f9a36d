import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { StoreCorruptError } from '../../server/src/core/errors';
import { LowdbStore } from '../../server/src/store/lowdb';
import type { ArtifactMeta, RunRecord } from '../../server/src/core/run';
import { resolveParams } from '../../server/src/pipeline/config';

const META: ArtifactMeta = { sanitizer: 'v1.0.0', provider: 'offline', model: 'offline', seed: 1, promptHash: 'f'.repeat(64), attempt: 1 };

function newRun(id: string): RunRecord {
  const now = new Date().toISOString();
  return {
    schema_version: 1,
    id,
    version: 0,
    status: 'running',
    stage: 'crawler',
    createdAt: now,
    updatedAt: now,
    params: resolveParams({}),
    activities: [],
    files: [],
    approvals: [],
    audit: [],
  };
}

describe('RunStore', () => {
  let ws: string;
  let store: LowdbStore;
  beforeEach(async () => {
    ws = await fsp.mkdtemp(path.join(os.tmpdir(), 'amtp-store-'));
    store = new LowdbStore(ws);
    await store.init();
  });
  afterEach(() => fsp.rm(ws, { recursive: true, force: true }));

  it('artifacts are content-addressed, validated, and read back verified', async () => {
    const a = await store.putArtifact('r_1', 'crawler_output', { x: 1 }, META);
    const b = await store.putArtifact('r_1', 'crawler_output', { x: 1 }, META);
    assert.equal(a.id, b.id);
    assert.match(a.id, /^a_[0-9a-f]{32}$/);
    assert.deepEqual(await store.getArtifact('r_1', a.id), a);
    await assert.rejects(store.putArtifact('r_1', 'crawler_output', { x: 1 }, { ...META, sanitizer: 'v0' as 'v1.0.0' }), /schema/);
  });

  it('an edited artifact is detected, not trusted', async () => {
    const a = await store.putArtifact('r_1', 'crawler_output', { x: 1 }, META);
    const file = path.join(ws, '.amtp/artifacts/r_1', `${a.id}.json`);
    const doc = JSON.parse(await fsp.readFile(file, 'utf8'));
    doc.content.x = 2;
    await fsp.writeFile(file, JSON.stringify(doc));
    await assert.rejects(
      store.getArtifact('r_1', a.id),
      (e: unknown) => e instanceof StoreCorruptError && /does not match its id/.test(e.message),
    );
  });

  it('a truncated run file is a clear error, a backup is kept, and the file is not reset', async () => {
    await store.saveRun(newRun('r_2'));
    const file = path.join(ws, '.amtp/runs/r_2.json');
    const text = await fsp.readFile(file, 'utf8');
    await fsp.writeFile(file, text.slice(0, text.length / 2));
    await assert.rejects(
      store.getRun('r_2'),
      (e: unknown) => e instanceof StoreCorruptError && /not valid JSON/.test(e.message) && /copy was kept/.test(e.message),
    );
    assert.equal(await fsp.readFile(file, 'utf8'), text.slice(0, text.length / 2), 'left as it is');
    await assert.rejects(store.getRun('r_2'), StoreCorruptError);
    const backups = (await fsp.readdir(path.join(ws, '.amtp/runs'))).filter((n) => n.includes('.corrupt'));
    assert.deepEqual(backups, ['r_2.json.corrupt'], 'one backup, however many reads');
  });

  it('optimistic versioning refuses a stale writer', async () => {
    const v1 = await store.saveRun(newRun('r_3'));
    await store.saveRun({ ...v1, status: 'completed' });
    await assert.rejects(store.saveRun({ ...v1, status: 'failed' }), /changed by another process/);
    assert.equal((await store.getRun('r_3'))!.status, 'completed');
  });

  it('a writer that knows its last write still refuses once another store instance wrote the run', async () => {
    const mine = await store.saveRun(newRun('r_5'));
    const other = new LowdbStore(ws);
    const theirs = await other.saveRun({ ...(await other.getRun('r_5'))!, status: 'failed' });
    assert.equal(theirs.version, 2);
    await assert.rejects(store.saveRun({ ...mine, status: 'completed' }), /changed by another process \(version 2, expected 1\)/);
    assert.equal((await store.getRun('r_5'))!.status, 'failed');
    // and its own next write, from the version on disk, goes through
    assert.equal((await store.saveRun({ ...theirs, status: 'completed' })).version, 3);
  });

  it('a run is locked by one process; a lock of a dead process is taken over', async () => {
    const release = await store.lockRun('r_4');
    await assert.rejects(
      store.lockRun('r_4').then(async (r) => {
        await r();
        throw new Error('second lock granted');
      }),
      /second lock granted|in use/,
    );
    await release();
    await fsp.writeFile(path.join(ws, '.amtp/runs/r_4.lock'), '999999');
    const again = await store.lockRun('r_4');
    await again();
  });

  it('refuses ids that could escape the store folder', async () => {
    await assert.rejects(store.getRun('../../etc/passwd'), /invalid id/);
    await assert.rejects(store.getArtifact('r_1', '../x'), /invalid id/);
  });
});
