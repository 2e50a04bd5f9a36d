// What processes share through Redis and Postgres (started by scripts/services.mjs): a 429 seen by
// one process (or one queue worker) pauses the others; two runs share one store; a worker on another commit refuses; bad
// or unreachable services are clear errors with an exit code, quickly.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { runCli } from '../helpers/cli';
import { FakeOpenAi } from '../helpers/fakeOpenAi';
import { offlineReply } from '../helpers/offlineModel';
import { cliEnv, gitWorkspace, startWorker, stopWorkers } from '../helpers/scaleRuns';
import { newDatabase, useServices } from '../helpers/services';
import { removeWorkspace } from '../helpers/workspaces';

const svc = useServices();
const BATCHES = ['--no-verify', '--no-characterize', '--max-input-tokens', '3000', '--json'];
const HOLD_S = 3;

/**
 * Two independent runs (told apart by their API keys) against one loopback model that answers with a
 * 429 (Retry-After: 3 s) the first request after both runs have been heard from: the other run is
 * then surely under way, whatever the machine's load.
 */
async function twoRunsWith429(shared: boolean, made: string[]): Promise<{ at429: number; hit: string; arrivals: [number, string][] }> {
  const arrivals: [number, string][] = [];
  let at429 = 0;
  let hit = '';
  const fake = await new FakeOpenAi((req) => {
    const key = String(req.headers.authorization);
    arrivals.push([Date.now(), key]);
    if (at429 || new Set(arrivals.map(([, k]) => k)).size < 2 || arrivals.length < 4) return offlineReply(req, 250);
    [at429, hit] = [Date.now(), key];
    return { status: 429, headers: { 'retry-after': String(HOLD_S) }, body: { error: { message: 'slow down' } } };
  }).start();
  try {
    const env = { AMTP_PROVIDER: 'openai', OPENAI_BASE_URL: fake.baseURL, ...(shared ? { AMTP_CACHE: svc.redis } : {}) };
    const runs = await Promise.all(
      [0, 1].map(async (i) => {
        const w = await gitWorkspace(40);
        made.push(w);
        const mine = cliEnv({ ...env, OPENAI_API_KEY: `sk-test-429-${i}` });
        return runCli(['generate', w, ...BATCHES, '--concurrency', '2'], mine, undefined, { timeout: 240_000 });
      }),
    );
    for (const r of runs) assert.equal(r.code, 0, r.stderr);
    assert.ok(at429 > 0, 'the 429 was sent');
    return { at429, hit, arrivals };
  } finally {
    await fake.stop();
  }
}

describe('what processes share', function () {
  this.timeout(300_000);
  const made: string[] = [];
  afterEach(async () => {
    await stopWorkers();
    await Promise.all(made.splice(0).map((w) => removeWorkspace(w)));
  });

  it('a 429 seen by one process pauses every process for that endpoint and model until the time it names', async () => {
    // Requests of the run that did not get the 429, arriving well inside the hold, with and without the shared regime.
    const inside = ({ at429, hit, arrivals }: Awaited<ReturnType<typeof twoRunsWith429>>) =>
      arrivals.filter(([t, key]) => key !== hit && t > at429 + 300 && t < at429 + HOLD_S * 1000 - 300).length;
    const alone = await twoRunsWith429(false, made);
    const shared = await twoRunsWith429(true, made);
    assert.ok(inside(alone) > 0, 'without --cache the other run keeps sending (the control)');
    assert.equal(inside(shared), 0, `with --cache the other process sent nothing during the ${HOLD_S} s hold`);
    assert.ok(
      shared.arrivals.some(([t, key]) => key !== shared.hit && t >= shared.at429 + HOLD_S * 1000 - 300),
      'and it went on after it',
    );
  });

  it('on a queue, a 429 answered to one worker stops the calls of every worker for the time it names', async () => {
    const arrivals: number[] = [];
    let at429 = 0;
    const fake = await new FakeOpenAi((req, n) => {
      arrivals.push(Date.now());
      // The fifth request gets the 429 (so four went before it: counting them by time was a check
      // that could only fail when two arrived in the same millisecond).
      if (n !== 5) return offlineReply(req, 250);
      at429 = Date.now();
      return { status: 429, headers: { 'retry-after': String(HOLD_S) }, body: { error: { message: 'slow down' } } };
    }).start();
    try {
      const w = await gitWorkspace(40);
      made.push(w);
      const env = { AMTP_STORE: await newDatabase(svc), AMTP_QUEUE: svc.redis, AMTP_PROVIDER: 'openai', OPENAI_BASE_URL: fake.baseURL };
      const workerEnv = { ...env, OPENAI_API_KEY: 'sk-test-429' };
      await Promise.all([0, 1, 2].map(() => startWorker(w, workerEnv).ready));
      const r = await runCli(['generate', w, ...BATCHES, '--concurrency', '3'], cliEnv(workerEnv), undefined, { timeout: 240_000 });
      assert.equal(r.code, 0, r.stderr);
      assert.ok(at429 > 0, 'the 429 was sent');
      const inside = arrivals.filter((t) => t > at429 + 300 && t < at429 + HOLD_S * 1000 - 300).length;
      const after = arrivals.filter((t) => t >= at429 + HOLD_S * 1000 - 300).length;
      assert.equal(inside, 0, `no worker sent anything during the ${HOLD_S} s hold`);
      assert.ok(after >= 5, `${after} calls after the hold: the run went on`);
    } finally {
      await fake.stop();
    }
  });

  it('two runs share one Postgres store with no collision', async () => {
    const store = await newDatabase(svc);
    const [a, b] = [await gitWorkspace(4), await gitWorkspace(4)];
    made.push(a, b);
    const [ra, rb] = await Promise.all(
      [a, b].map((w) => runCli(['generate', w, ...BATCHES], cliEnv({ AMTP_STORE: store }), undefined, { timeout: 240_000 })),
    );
    assert.equal(ra.code, 0, ra.stderr);
    assert.equal(rb.code, 0, rb.stderr);
    const [ja, jb] = [JSON.parse(ra.stdout), JSON.parse(rb.stdout)];
    assert.notEqual(ja.runId, jb.runId);
    const listed = async (w: string) =>
      JSON.parse((await runCli(['runs', w, '--json', '--store', store], cliEnv({}))).stdout).runs.map((r: { runId: string }) => r.runId);
    assert.deepEqual(await listed(a), [ja.runId], "each workspace lists its own run, not the other's");
    assert.deepEqual(await listed(b), [jb.runId]);
  });

  it("a worker whose workspace moved to another commit refuses the job; a worker on the run's commit runs it", async () => {
    const store = await newDatabase(svc);
    const [run, stale] = [await gitWorkspace(4), await gitWorkspace(4)];
    made.push(run, stale);
    execFileSync('git', ['fetch', '-q', run, 'HEAD'], { cwd: stale });
    execFileSync('git', ['reset', '-q', '--hard', 'FETCH_HEAD'], { cwd: stale }); // same commit as the run's
    const env = { AMTP_STORE: store, AMTP_QUEUE: svc.redis };
    const refuser = startWorker(stale, env);
    await refuser.ready;
    execFileSync('git', ['-c', 'user.email=t@amtp.test', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'moved on'], {
      cwd: stale,
    });
    const gen = runCli(['generate', run, ...BATCHES], cliEnv(env), undefined, { timeout: 240_000 });
    const deadline = Date.now() + 60_000;
    while (!/refusing the job/.test(refuser.log()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.match(refuser.log(), /the workspace is at commit [0-9a-f]{40}, not [0-9a-f]{40}: refusing the job/);
    await startWorker(run, env).ready;
    const r = await gen;
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).status, 'completed');
  });

  it('bad URLs and services that are not there are clear errors with an exit code, within seconds', async () => {
    const ws = await gitWorkspace(1);
    made.push(ws);
    const cases: [string[], Record<string, string>, number, RegExp][] = [
      [['--store', 'mysql://x@127.0.0.1/db'], {}, 2, /postgres:\/\//],
      [['--store', 'postgres://amtp:pw@127.0.0.1:1/amtp'], {}, 4, /cannot reach the Postgres store at postgres:\/\/127\.0\.0\.1:1\/amtp/],
      [['--cache', 'redis://127.0.0.1:1'], {}, 4, /cannot reach Redis at redis:\/\/127\.0\.0\.1:1/],
      [['--cache', 'http://x'], {}, 2, /redis:\/\//],
      [['--queue', svc.redis], {}, 2, /--queue needs a Postgres store/],
      [['--queue', 'redis://127.0.0.1:1', '--store', svc.postgres], {}, 4, /cannot reach Redis/],
    ];
    for (const [args, env, code, message] of cases) {
      const t0 = Date.now();
      const r = await runCli(['generate', ws, '--no-verify', ...args], cliEnv(env), undefined, { timeout: 60_000 });
      assert.equal(r.code, code, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message);
      assert.doesNotMatch(r.stderr, /pw@/, 'no password in messages');
      assert.ok(Date.now() - t0 < 20_000, `${args.join(' ')} took ${Date.now() - t0} ms`);
    }
    const worker = await runCli(['worker', ws], cliEnv({}), undefined, { timeout: 60_000 });
    assert.equal(worker.code, 2);
    assert.match(worker.stderr, /needs --queue/);
  });
});
