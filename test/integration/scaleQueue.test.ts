// A run fanned out over `amtp worker` processes (BullMQ on Redis 7, the ledger in Postgres 15, both
// started by scripts/services.mjs) gives what one process gives, survives a worker killed with -9,
// a Redis restart, dropped Postgres connections and a Postgres crash, and loses or doubles nothing.
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import * as os from 'node:os';
import { PostgresStore } from '../../server/src/store/postgres';
import type { ScriptedReply } from '../helpers/fakeOpenAi';
import { runCli } from '../helpers/cli';
import { offlineReply } from '../helpers/offlineModel';
import { FakeOpenAi } from '../helpers/fakeOpenAi';
import { cliEnv, gitWorkspace, runArtifacts, startWorker, stopWorkers, writtenFiles } from '../helpers/scaleRuns';
import { newDatabase, restartPostgres, restartRedis, useServices } from '../helpers/services';
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

/** Polls a condition of the system under test (a state, never a fixed sleep) for up to a minute. */
async function until(what: string, ok: () => boolean | Promise<boolean>): Promise<void> {
  const end = Date.now() + 60_000;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function sql<T>(storeUrl: string, text: string, params: unknown[]): Promise<T[]> {
  const store = new PostgresStore(os.tmpdir(), storeUrl);
  try {
    return (await store.query((c) => c.query(text, params))).rows as T[];
  } finally {
    await store.close();
  }
}

/** Nothing doubled: one artifact per batch, and each is the one its batch committed. */
async function assertOneArtifactPerBatch(store: string, runId: string): Promise<void> {
  const twice = await sql(
    store,
    'SELECT kind, prompt_hash FROM amtp.artifacts WHERE run_id = $1 AND prompt_hash IS NOT NULL GROUP BY 1, 2 HAVING count(*) > 1',
    [runId],
  );
  assert.deepEqual(twice, [], 'one artifact per batch');
  const [{ n }] = await sql<{ n: string }>(
    store,
    'SELECT count(*) AS n FROM amtp.artifacts WHERE run_id = $1 AND prompt_hash IS NOT NULL',
    [runId],
  );
  const [{ b }] = await sql<{ b: string }>(store, "SELECT count(*) AS b FROM amtp.batches WHERE run_id = $1 AND status = 'completed'", [
    runId,
  ]);
  assert.equal(n, b, 'every batch artifact is the one its batch committed');
  assert.ok(Number(b) >= 6, `${b} batches`);
}

/** The files an offline single-process run writes into a workspace like these (computed once). */
let reference: Record<string, string> | undefined;
async function referenceFiles(extra: number, made: string[]): Promise<Record<string, string>> {
  if (reference) return reference;
  const w = await gitWorkspace(extra);
  made.push(w);
  const r = await generate(w, {});
  reference = await writtenFiles(w, r.files);
  return reference;
}

/** A loopback model answering like the offline engines after `delayMs`, the arrival time of each request kept. */
async function model(
  delayMs: number,
  special?: (n: number) => ScriptedReply | undefined,
): Promise<{ fake: FakeOpenAi; arrivals: number[] }> {
  const arrivals: number[] = [];
  const fake = await new FakeOpenAi((req, n) => {
    arrivals.push(Date.now());
    return special?.(n) ?? offlineReply(req, delayMs);
  }).start();
  return { fake, arrivals };
}

const llmEnv = (fake: FakeOpenAi) => ({ AMTP_PROVIDER: 'openai', OPENAI_BASE_URL: fake.baseURL, OPENAI_API_KEY: 'sk-test-scale-000' });

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

  it('completes when a worker is killed with -9 mid-call: another worker answers its job, no artifact is made twice', async () => {
    const { fake } = await model(1500);
    try {
      const w = await ws(12);
      const store = await newDatabase(svc);
      const env = { AMTP_STORE: store, AMTP_QUEUE: svc.redis, AMTP_QUEUE_LOCK_MS: '1500', ...llmEnv(fake) };
      const victim = startWorker(w, env);
      await victim.ready;
      const run = generate(w, env);
      await until('the first worker to be in a model call', () => fake.requests.length >= 1);
      victim.child.kill('SIGKILL');
      const rescuer = startWorker(w, env);
      await rescuer.ready;
      const out = await run;
      assert.equal(out.status, 'completed');
      const first = fake.requests[0].body.messages;
      assert.ok(
        fake.requests.slice(1).some((r) => JSON.stringify(r.body.messages) === JSON.stringify(first)),
        "the killed worker's call was sent again by the other worker",
      );
      await assertOneArtifactPerBatch(store, out.runId);
      assert.deepEqual(await writtenFiles(w, out.files), await referenceFiles(12, made), 'no file lost or half-written');
    } finally {
      await fake.stop();
    }
  });

  it('continues when Redis restarts empty mid-run: lost jobs are queued again from the ledger', async () => {
    const { fake } = await model(400);
    try {
      const w = await ws(12);
      const store = await newDatabase(svc);
      const env = { AMTP_STORE: store, AMTP_QUEUE: svc.redis, ...llmEnv(fake) };
      await Promise.all([startWorker(w, env), startWorker(w, env)].map((x) => x.ready));
      const run = generate(w, env);
      await until('a few answered calls', () => fake.requests.length >= 3);
      restartRedis(svc);
      const out = await run;
      assert.equal(out.status, 'completed');
      await assertOneArtifactPerBatch(store, out.runId);
      assert.deepEqual(await writtenFiles(w, out.files), await referenceFiles(12, made));
    } finally {
      await fake.stop();
    }
  });

  it('reconnects when Postgres drops every connection of the run and its workers (pg_terminate_backend)', async () => {
    const { fake } = await model(400);
    try {
      const w = await ws(12);
      const store = await newDatabase(svc);
      const env = { AMTP_STORE: store, AMTP_QUEUE: svc.redis, ...llmEnv(fake) };
      await Promise.all([startWorker(w, env), startWorker(w, env)].map((x) => x.ready));
      const run = generate(w, env);
      let dropped = 0;
      for (const at of [2, 4, 6]) {
        await until(`${at} calls`, () => fake.requests.length >= at);
        const killed = await sql(
          svc.postgres,
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'amtp' AND datname = $1",
          [new URL(store).pathname.slice(1)],
        );
        dropped += killed.length;
      }
      const out = await run;
      assert.ok(dropped >= 3, `${dropped} connections dropped`);
      assert.equal(out.status, 'completed');
      await assertOneArtifactPerBatch(store, out.runId);
      assert.deepEqual(await writtenFiles(w, out.files), await referenceFiles(12, made));
    } finally {
      await fake.stop();
    }
  });

  it('resumes its work when the Postgres server crashes mid-run and comes back: the run and its workers reconnect', async () => {
    const { fake } = await model(400);
    try {
      const w = await ws(12);
      const store = await newDatabase(svc);
      const env = { AMTP_STORE: store, AMTP_QUEUE: svc.redis, ...llmEnv(fake) };
      const workers = [startWorker(w, env), startWorker(w, env)];
      await Promise.all(workers.map((x) => x.ready));
      const run = generate(w, env);
      await until('a few answered calls', () => fake.requests.length >= 3);
      const before = fake.requests.length;
      await restartPostgres(svc);
      const out = await run;
      assert.equal(out.status, 'completed');
      assert.ok(fake.requests.length > before, 'model calls went on after the crash');
      assert.ok(
        workers.every((x) => x.child.exitCode === null),
        'the workers outlived the outage: ' + workers.map((x) => x.log()).join('\n'),
      );
      await assertOneArtifactPerBatch(store, out.runId);
      assert.deepEqual(await writtenFiles(w, out.files), await referenceFiles(12, made));
    } finally {
      await fake.stop();
    }
  });
});
