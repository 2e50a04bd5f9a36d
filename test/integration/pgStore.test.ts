// What only the Postgres store has: its migrations, its query tables, and riding out a dropped
// connection. Real Postgres 15 from scripts/services.mjs.
import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ServiceUnavailableError, StoreCorruptError, UsageError } from '../../server/src/core/errors';
import { loadMigrations, migrate } from '../../server/src/store/pgSchema';
import { PostgresStore } from '../../server/src/store/postgres';
import { newDatabase, useServices } from '../helpers/services';
import { newRun } from '../helpers/runRecord';

const svc = useServices({ redis: false });

describe('Postgres store', function () {
  this.timeout(60_000);
  let ws: string;
  let store: PostgresStore;
  let db: string;
  beforeEach(async () => {
    ws = await fsp.mkdtemp(path.join(os.tmpdir(), 'amtp-pg-'));
    db = await newDatabase(svc);
    store = new PostgresStore(ws, db);
    await store.init();
  });
  afterEach(async () => {
    await store.close();
    await fsp.rm(ws, { recursive: true, force: true });
  });

  it('applies the migrations once and records each version with its checksum', async () => {
    const rows = await store.query((c) => c.query('SELECT version, name, checksum FROM amtp.schema_version ORDER BY version'));
    const files = loadMigrations();
    assert.deepEqual(
      rows.rows.map((r) => [r.version, r.name, r.checksum]),
      files.map((m) => [m.version, m.name, m.checksum]),
    );
    assert.deepEqual(await store.query((c) => migrate(c)), [], 'a second start applies nothing');
  });

  it('refuses a database whose schema is newer than this AMTP, or whose applied migration changed', async () => {
    const files = loadMigrations();
    await assert.rejects(
      store.query((c) => migrate(c, [{ ...files[0], checksum: 'changed' }])),
      (e: unknown) => e instanceof StoreCorruptError && /changed after it was applied/.test(e.message),
    );
    await store.query((c) => c.query(`INSERT INTO amtp.schema_version (version, name, checksum) VALUES (999, 'future', 'x')`));
    await assert.rejects(
      store.query((c) => migrate(c)),
      (e: unknown) => e instanceof StoreCorruptError && /newer than this AMTP knows/.test(e.message),
    );
  });

  it('keeps the query tables in step with the run record', async () => {
    let run = await store.saveRun(newRun('r_q', ws));
    run = await store.saveRun({
      ...run,
      stage: 'generator',
      activities: [
        {
          agent: 'crawler',
          status: 'completed',
          attempts: 1,
          errors: [],
          batches: [{ index: 1, key: 'k1', status: 'completed', attempts: 1, errors: [], requestTokens: 100 }],
        },
      ],
      audit: [{ at: run.updatedAt, tool: 'fs.create_test', risk: 'medium', outcome: 'executed' }],
    });
    await store.saveRun({ ...run, status: 'completed', stage: 'done' });
    const q = (sql: string) => store.query((c) => c.query(sql)).then((r) => r.rows);
    assert.deepEqual(await q(`SELECT agent, status, attempts FROM amtp.activities WHERE run_id = 'r_q'`), [
      { agent: 'crawler', status: 'completed', attempts: 1 },
    ]);
    assert.deepEqual(await q(`SELECT batch_index, batch_key, status FROM amtp.batches WHERE run_id = 'r_q'`), [
      { batch_index: 1, batch_key: 'k1', status: 'completed' },
    ]);
    assert.deepEqual(await q(`SELECT seq, tool, outcome FROM amtp.audit WHERE run_id = 'r_q'`), [
      { seq: 0, tool: 'fs.create_test', outcome: 'executed' },
    ]);
    assert.deepEqual(
      (await q(`SELECT version, status, stage FROM amtp.events WHERE run_id = 'r_q' ORDER BY version`)).map(
        (r) => `${r.version} ${r.status} ${r.stage}`,
      ),
      ['1 running crawler', '2 running generator', '3 completed done'],
    );
  });

  it('reconnects when the server drops its connections (pg_terminate_backend) and loses no write', async () => {
    let run = await store.saveRun(newRun('r_drop', ws));
    const admin = new PostgresStore(ws, svc.postgres);
    try {
      for (let i = 0; i < 5; i++) {
        const killed = await admin.query((c) =>
          c.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'amtp' AND datname = $1`, [
            new URL(db).pathname.slice(1),
          ]),
        );
        assert.ok(killed.rowCount! >= 1, 'the store had a connection to drop');
        run = await store.saveRun({ ...run, reason: `s${i}` });
        await store.putArtifact('r_drop', 'crawler_output', { n: i }, { merged_from: [] });
      }
    } finally {
      await admin.close();
    }
    assert.equal((await store.getRun('r_drop'))!.reason, 's4');
    assert.equal((await store.getRun('r_drop'))!.version, 6);
  });

  it('survives a connection dropped while an operation holds it between two queries, and runs the operation again', async () => {
    let tries = 0;
    const one = await store.query(async (c) => {
      tries++;
      const pid = (await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      if (tries === 1) {
        const ended = new Promise((r) => c.once('end', r)); // after the client's error event: unhandled, it would end the process
        await store.query((d) => d.query('SELECT pg_terminate_backend($1)', [pid]));
        await ended;
      }
      return (await c.query<{ one: number }>('SELECT 1 AS one')).rows[0].one;
    });
    assert.equal(one, 1);
    assert.equal(tries, 2, 'the operation ran again on a new connection');
  });

  it('a malformed URL is a usage error; a port nobody listens on is a clear error within seconds', async () => {
    assert.throws(() => new PostgresStore(ws, 'postgres//nohost'), UsageError);
    assert.throws(() => new PostgresStore(ws, 'mysql://x@127.0.0.1/db'), /postgres:\/\//);
    const dead = new PostgresStore(ws, 'postgres://amtp:secret@127.0.0.1:1/amtp');
    const t0 = Date.now();
    await assert.rejects(
      dead.init(),
      (e: unknown) => e instanceof ServiceUnavailableError && /127\.0\.0\.1:1/.test(e.message) && !/secret/.test(e.message),
    );
    assert.ok(Date.now() - t0 < 10_000, `gave up after ${Date.now() - t0} ms`);
    await dead.close();
  });
});
