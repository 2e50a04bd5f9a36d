// The RunStore contract, run against both stores: the lowdb files (the default) and Postgres 15
// (started by scripts/services.mjs). Whatever the pipeline relies on holds for each.
import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ForeignRunError, StoreCorruptError, UsageError } from '../../server/src/core/errors';
import type { ArtifactMeta } from '../../server/src/core/run';
import { LowdbStore } from '../../server/src/store/lowdb';
import { PostgresStore } from '../../server/src/store/postgres';
import { sessionKey, type RunStore } from '../../server/src/store/types';
import { newRun } from '../helpers/runRecord';
import { newDatabase, useServices } from '../helpers/services';

const META: ArtifactMeta = { sanitizer: 'v1.0.0', provider: 'offline', model: 'offline', seed: 1, promptHash: 'f'.repeat(64), attempt: 1 };

interface Backend {
  name: string;
  open(ws: string): Promise<RunStore>;
  /** changes one stored artifact's bytes behind the store's back */
  tamper(store: RunStore, runId: string, id: string): Promise<void>;
}

const svc = useServices({ redis: false });

const BACKENDS: Backend[] = [
  {
    name: 'lowdb',
    open: async (ws) => new LowdbStore(ws),
    async tamper(_s, runId, id) {
      const file = path.join(_s.workspace, '.amtp/artifacts', runId, `${id}.json`);
      await fsp.writeFile(file, (await fsp.readFile(file, 'utf8')).replace('"x":1', '"x":2'));
    },
  },
  {
    name: 'postgres',
    open: async (ws) => new PostgresStore(ws, await newDatabase(svc)),
    async tamper(s, runId, id) {
      await (s as PostgresStore).query((c) =>
        c.query(`UPDATE amtp.artifacts SET text = replace(text, '"x":1', '"x":2') WHERE id = $1 AND run_id = $2`, [id, runId]),
      );
    },
  },
];

for (const backend of BACKENDS) {
  describe(`RunStore contract: ${backend.name}`, function () {
    this.timeout(60_000);
    let ws: string;
    let store: RunStore;
    beforeEach(async () => {
      ws = await fsp.mkdtemp(path.join(os.tmpdir(), 'amtp-contract-'));
      store = await backend.open(ws);
      await store.init();
    });
    afterEach(async () => {
      await store.close();
      await fsp.rm(ws, { recursive: true, force: true });
    });

    it('artifacts are content-addressed, validated, and read back verified; a second write is a no-op', async () => {
      const a = await store.putArtifact('r_1', 'crawler_output', { x: 1 }, META);
      const b = await store.putArtifact('r_1', 'crawler_output', { x: 1 }, META);
      assert.equal(a.id, b.id);
      assert.match(a.id, /^a_[0-9a-f]{32}$/);
      assert.deepEqual(await store.getArtifact('r_1', a.id), a);
      const { contentText } = await store.loadArtifact('r_1', a.id);
      assert.equal(contentText, '{"x":1}');
      await assert.rejects(store.putArtifact('r_1', 'crawler_output', { x: 1 }, { ...META, sanitizer: 'v0' as 'v1.0.0' }), /schema/);
      await assert.rejects(
        store.getArtifact('r_1', 'a_' + '0'.repeat(32)),
        (e: unknown) => e instanceof StoreCorruptError && /missing/.test(e.message),
      );
    });

    it('an artifact changed behind the store is detected, not trusted', async () => {
      const a = await store.putArtifact('r_1', 'crawler_output', { x: 1 }, META);
      await backend.tamper(store, 'r_1', a.id);
      await assert.rejects(
        store.getArtifact('r_1', a.id),
        (e: unknown) => e instanceof StoreCorruptError && /does not match its id/.test(e.message),
      );
    });

    it('session artifacts are found by kind and prompt hash; merged outputs are not session artifacts', async () => {
      const s = await store.putArtifact('r_1', 'generator_batch', { schema_version: '1', cases: [] }, META);
      await store.putArtifact('r_1', 'crawler_output', { x: 1 }, { merged_from: [s.id] });
      const found = await store.sessionArtifacts('r_1');
      assert.deepEqual([...found.keys()], [sessionKey('generator_batch', META.promptHash as string)]);
      assert.equal((await store.findUncommittedArtifact('r_1', 'generator_batch', 'f'.repeat(64)))?.id, s.id);
      assert.equal(await store.findUncommittedArtifact('r_1', 'generator_batch', 'e'.repeat(64)), undefined);
      assert.equal((await store.sessionArtifacts('r_2')).size, 0, 'another run sees none of them');
    });

    it('a run record reads back exactly as saved; optimistic versioning refuses a stale writer', async () => {
      const v1 = await store.saveRun(newRun('r_3', ws));
      assert.equal(v1.version, 1);
      assert.equal(JSON.stringify(await store.getRun('r_3')), JSON.stringify(v1), 'same keys in the same order');
      const v2 = await store.saveRun({ ...v1, status: 'completed' });
      await assert.rejects(store.saveRun({ ...v1, status: 'failed' }), /changed by another process \(version 2, expected 1\)/);
      assert.equal((await store.getRun('r_3'))!.status, 'completed');
      assert.equal(v2.version, 2);
      assert.equal(await store.getRun('r_none'), undefined);
    });

    it("lists this person's runs here oldest first; a foreign record is counted, never resumed", async () => {
      await store.saveRun(newRun('r_b', ws, new Date('2030-01-02T00:00:00Z')));
      await store.saveRun(newRun('r_a', ws, new Date('2030-01-01T00:00:00Z')));
      await store.saveRun({ ...newRun('r_x', ws), owner: 'o1_' + '0'.repeat(64) });
      const { runs, ignored } = await store.scanRuns();
      assert.deepEqual(
        runs.map((r) => r.id),
        ['r_a', 'r_b'],
      );
      assert.deepEqual(ignored.foreign, ['r_x']);
      assert.equal((await store.getOwnRun('r_a')).id, 'r_a');
      await assert.rejects(store.getOwnRun('r_x'), ForeignRunError);
      await assert.rejects(store.getOwnRun('r_none'), UsageError);
    });

    it('two runs share one store with no collision', async () => {
      const [one, two] = [newRun('r_one', ws), newRun('r_two', ws)];
      const [s1, s2] = await Promise.all([store.saveRun(one), store.saveRun(two)]);
      const [a1, a2] = await Promise.all([
        store.putArtifact('r_one', 'crawler_output', { x: 1 }, META),
        store.putArtifact('r_two', 'crawler_output', { x: 1 }, META),
      ]);
      assert.notEqual(a1.id, a2.id, 'the same content in two runs is two artifacts');
      await Promise.all([store.saveRun({ ...s1, stage: 'generator' }), store.saveRun({ ...s2, stage: 'engineer' })]);
      assert.equal((await store.getRun('r_one'))!.stage, 'generator');
      assert.equal((await store.getRun('r_two'))!.stage, 'engineer');
      await assert.rejects(store.getArtifact('r_two', a1.id), StoreCorruptError, "a run cannot load another run's artifact");
    });

    it('a run lock is released and taken again', async () => {
      const release = await store.lockRun('r_4');
      await release();
      const again = await store.lockRun('r_4');
      await again();
    });

    it('refuses ids that could escape the store', async () => {
      await assert.rejects(store.getRun('../../etc/passwd'), /invalid id/);
      await assert.rejects(store.getArtifact('r_1', '../x'), /invalid id|missing/);
      await assert.rejects(store.putArtifact('../r', 'crawler_output', { x: 1 }, META), /invalid id/);
    });
  });
}
