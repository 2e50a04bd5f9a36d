// A run fanned out over `amtp worker` processes (BullMQ on Redis 7, the ledger in Postgres 15, both
// started by scripts/services.mjs) gives what one process gives, survives a worker killed with -9,
// a Redis restart and dropped Postgres connections, and refuses what it must.
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { PostgresStore } from '../../server/src/store/postgres';
import { runCli } from '../helpers/cli';
import { cliEnv, gitWorkspace, runArtifacts, startWorker, stopWorkers, writtenFiles } from '../helpers/scaleRuns';
import { newDatabase, useServices } from '../helpers/services';
import { removeWorkspace } from '../helpers/workspaces';

const svc = useServices();
const BATCHES = ['--no-verify', '--no-characterize', '--max-input-tokens', '3000', '--json'];

interface Generated {
  status: string;
  runId: string;
  files: { path: string; action: string }[];
  cases: { id: string }[];
}

async function generate(ws: string, env: Record<string, string | undefined>, extra: string[] = []): Promise<Generated> {
  const r = await runCli(['generate', ws, ...BATCHES, ...extra], cliEnv(env), undefined, { timeout: 240_000 });
  assert.equal(r.code, 0, `generate exited ${r.code} ${r.signal ?? ''}: ${r.stderr}`);
  return JSON.parse(r.stdout) as Generated;
}

async function workersOf(storeUrl: string, ws: string, runId: string): Promise<string[]> {
  const store = new PostgresStore(ws, storeUrl);
  try {
    const r = await store.query((c) =>
      c.query<{ worker: string }>('SELECT worker FROM amtp.attempts WHERE run_id = $1 ORDER BY requested_at', [runId]),
    );
    return r.rows.map((x) => x.worker);
  } finally {
    await store.close();
  }
}

describe('a run fanned out over a queue', function () {
  this.timeout(300_000);
  const made: string[] = [];
  const ws = async (extra = 40) => {
    const w = await gitWorkspace(extra);
    made.push(w);
    return w;
  };
  afterEach(async () => {
    await stopWorkers();
    await Promise.all(made.splice(0).map((w) => removeWorkspace(w)));
  });

  it('gives, on 3 workers, the artifacts and files of a single-process run, and a recording that replays deterministically', async () => {
    const [one, many] = [await ws(), await ws()];
    const singleStore = await newDatabase(svc);
    const single = await generate(one, { AMTP_STORE: singleStore });
    const store = await newDatabase(svc);
    const env = { AMTP_STORE: store, AMTP_QUEUE: svc.redis };
    const workers = [0, 1, 2].map(() => startWorker(many, env));
    await Promise.all(workers.map((w) => w.ready));
    const rec = path.join(path.dirname(many), 'run.jsonl');
    const fanned = await generate(many, env, ['--record', rec]);
    assert.equal(fanned.status, 'completed');
    const lowdb = JSON.parse((await runCli(['runs', one, '--json'], cliEnv({}))).stdout) as { runs: unknown[] };
    assert.deepEqual(lowdb.runs, [], 'the .amtp/ folder holds no run: it went to Postgres');
    const a = await runArtifacts(singleStore, one, single.runId);
    const b = await runArtifacts(store, many, fanned.runId);
    assert.ok(b.length >= 13, `${b.length} artifacts`);
    assert.deepEqual(b, a, 'the same artifacts, byte for byte, in the same order');
    assert.deepEqual(await writtenFiles(many, fanned.files), await writtenFiles(one, single.files));
    assert.deepEqual(fanned.cases, single.cases);
    const answeredBy = new Set(await workersOf(store, many, fanned.runId));
    assert.ok(answeredBy.size >= 2, `jobs were answered by ${[...answeredBy].join(', ')}`);
    const check = await runCli(['verify-determinism', rec], cliEnv({}), undefined, { timeout: 240_000 });
    assert.equal(check.code, 0, check.stdout + check.stderr);
  });
});
