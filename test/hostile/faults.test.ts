import { strict as assert } from 'node:assert';
import { spawn, spawnSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { approveAll } from '../../server/src/gateway/approvers';
import { OpenAiProvider } from '../../server/src/llm/openaiProvider';
import { resolveParams } from '../../server/src/pipeline/config';
import { startRun } from '../../server/src/pipeline/orchestrator';
import { LowdbStore } from '../../server/src/store/lowdb';
import { atomicWrite } from '../../server/src/util/safePath';
import { CLI, runCli, type CliResult } from '../helpers/cli';
import { FakeOpenAi } from '../helpers/fakeOpenAi';
import { openAiDeps } from '../helpers/pipelineDeps';
import { GOOD_TEST_PATH, goodModel, isGoodTestFile, makeAddWorkspace } from '../helpers/scriptedModel';
import { artifactsOf, listAll, rmTemp, tally, tempDir, tempLeftovers } from './helpers/common';

const params = () => resolveParams({ provider: 'openai', model: 'm' });

/** Three more modules besides the adder's index.js: the engineer's result is one test file per module. */
async function addThreeModules(ws: string): Promise<void> {
  for (const n of ['a', 'b', 'c'])
    await fsp.writeFile(
      path.join(ws, `${n}.js`),
      `/** The ${n} helper. */\nfunction ${n}Helper(x) {\n  return x;\n}\nmodule.exports = { ${n}Helper };\n`,
    );
}

describe('hostile 4: faults', function () {
  this.timeout(120_000);
  let fake: FakeOpenAi;
  let ws: string;
  const env = () => ({
    OPENAI_API_KEY: 'sk-test-fault-key-0000000000',
    OPENAI_BASE_URL: fake.baseURL,
    AMTP_MODEL: 'm',
    AMTP_BACKOFF_SCALE: '0.001',
  });
  beforeEach(async () => {
    fake = await new FakeOpenAi(goodModel).start();
    ws = await makeAddWorkspace('amtp-hostile-fault-');
  });
  afterEach(async () => {
    await fake.stop();
    await rmTemp(path.dirname(ws));
  });

  it('SIGKILL in the write stage after the first of three files: resume writes the rest, keeps the first, loses nothing (see also test/integration/crash-resume.test.ts)', async () => {
    await addThreeModules(ws);
    // Without verification: this is about the write stage (the verifier may then prune what it wrote).
    const crashed = await runCli(['generate', ws, '--provider', 'openai', '--yes', '--no-verify', '--json'], {
      ...env(),
      AMTP_CRASH_AT: 'write:file',
    });
    assert.equal(crashed.signal, 'SIGKILL', crashed.stderr);
    const [run] = await new LowdbStore(ws).listRuns();
    const engineer = await new LowdbStore(ws).agentOutput(run, 'engineer');
    const paths = engineer.files.map((f) => f.path).sort();
    assert.deepEqual(paths, ['test/a.amtp.test.js', 'test/adder.amtp.test.js', 'test/b.amtp.test.js', 'test/c.amtp.test.js']);
    const written = (await listAll(ws)).filter((p) => /^test\/.+\.test\.js$/.test(p));
    assert.deepEqual(written, ['test/a.amtp.test.js'], 'killed right after the first file');
    const firstMtime = (await fsp.stat(path.join(ws, 'test/a.amtp.test.js'))).mtimeMs;
    const calls = fake.requests.length;
    const resumed = await runCli(['resume', run.id, ws, '--yes', '--json'], env());
    assert.equal(resumed.code, 0, resumed.stderr);
    const summary = JSON.parse(resumed.stdout);
    // The kill fell between the rename and the run-record commit of a.test.js; resume finds its bytes in
    // place and the audit row of that write, so the record still says AMTP created it (B5, fixed).
    const actions = Object.fromEntries(summary.files.map((f: { path: string; action: string }) => [f.path, f.action]));
    for (const p of paths) assert.equal(actions[p], 'created', p);
    assert.equal(fake.requests.length, calls, 'no agent is called again');
    assert.equal((await fsp.stat(path.join(ws, 'test/a.amtp.test.js'))).mtimeMs, firstMtime, 'the settled file is not rewritten');
    for (const f of engineer.files) assert.equal(await fsp.readFile(path.join(ws, f.path), 'utf8'), f.content);
    assert.deepEqual(await tempLeftovers(ws), []);
    tally('4 faults: SIGKILL + resume', { tried: 1 });
  });

  for (const damage of ['truncated', 'garbage', 'empty'] as const) {
    it(`amtp resume / runs on a ${damage} run file: resume fails clearly, runs lists around it; one backup, the file unchanged`, async () => {
      const crashed = await runCli(['generate', ws, '--provider', 'openai', '--yes', '--json'], {
        ...env(),
        AMTP_CRASH_AT: 'generator:committed',
      });
      assert.equal(crashed.signal, 'SIGKILL');
      const [run] = await new LowdbStore(ws).listRuns();
      const file = path.join(ws, '.amtp/runs', `${run.id}.json`);
      const text = await fsp.readFile(file, 'utf8');
      const bad =
        damage === 'truncated' ? text.slice(0, Math.floor(text.length / 2)) : damage === 'garbage' ? '\u0000\u00ff{{{not json' : '';
      await fsp.writeFile(file, bad);
      for (let i = 0; i < 2; i++) {
        const res = await runCli(['resume', run.id, ws, '--yes'], env());
        assert.notEqual(res.code, 0, 'resume must fail');
        assert.match(
          res.stderr,
          /StoreCorrupt: .* is not valid JSON .*A copy was kept at .*\.corrupt; the file was left as it is/,
          res.stderr,
        );
        // A listing is not about this run: it says which record it could not read and goes on.
        const runs = await runCli(['runs', ws], env());
        assert.equal(runs.code, 0, runs.stderr);
        assert.match(
          runs.stderr,
          new RegExp(`ignoring 1 run record\\(s\\) in \\.amtp/runs: 1 unreadable \\(${run.id}\\.json: not valid JSON\\)`),
        );
        assert.equal(await fsp.readFile(file, 'utf8'), bad, 'no silent reset: the damaged file is as it was');
      }
      const backups = (await fsp.readdir(path.join(ws, '.amtp/runs'))).filter((n) => n.includes('.corrupt'));
      assert.deepEqual(backups, [`${run.id}.json.corrupt`], 'one backup, however many reads');
      assert.equal(await fsp.readFile(path.join(ws, '.amtp/runs', backups[0]), 'utf8'), bad, 'the backup is a byte copy');
      tally('4 faults: corrupt store', { tried: 1 });
    });
  }

  it('an edited artifact is refused on resume (StoreCorrupt), the run fails with the reason, and the artifact is left as it is', async () => {
    const crashed = await runCli(['generate', ws, '--provider', 'openai', '--yes', '--json'], {
      ...env(),
      AMTP_CRASH_AT: 'generator:committed',
    });
    assert.equal(crashed.signal, 'SIGKILL');
    const [run] = await new LowdbStore(ws).listRuns();
    const gen = run.activities.find((a) => a.agent === 'generator')!;
    const file = path.join(ws, '.amtp/artifacts', run.id, `${gen.artifactId}.json`);
    const edited = (await fsp.readFile(file, 'utf8')).replace('add(2, 3) returns 5', 'add(2, 3) returns 6');
    await fsp.writeFile(file, edited);
    const res = await runCli(['resume', run.id, ws, '--yes', '--json'], env());
    assert.equal(res.code, 4, res.stderr);
    assert.match(res.stderr, /StoreCorrupt: artifact .* content does not match its id/);
    assert.equal(await fsp.readFile(file, 'utf8'), edited);
    assert.equal(fake.callsFor('engineer').length, 0, 'the engineer never saw the edited payload');
    const after = await new LowdbStore(ws).getRun(run.id);
    assert.equal(after!.status, 'failed');
    assert.match(after!.reason!, /StoreCorrupt/);
    tally('4 faults: corrupt store', { tried: 1 });
  });

  it('EACCES (the CLI runs as uid 65534 on a workspace it can read, not write): clear error, the original test file intact', async function () {
    if (process.getuid?.() !== 0) return this.skip();
    // Everything readable by nobody; only .amtp/ writable, so the failure is the test-file overwrite.
    await fsp.chmod(path.dirname(ws), 0o755);
    await fsp.mkdir(path.join(ws, 'test'));
    const original = "// the person's own test, not AMTP's\n";
    await fsp.writeFile(path.join(ws, GOOD_TEST_PATH), original);
    await fsp.mkdir(path.join(ws, '.amtp'));
    spawnSync('chown', ['-R', '65534:65534', path.join(ws, '.amtp')]);
    const res = await runCli(['generate', ws, '--provider', 'openai', '--yes', '--json'], env(), undefined, { uid: 65534, gid: 65534 });
    assert.equal(res.code, 4, res.stdout + res.stderr);
    assert.match(res.stderr, /EACCES|permission denied/i);
    assert.equal(await fsp.readFile(path.join(ws, GOOD_TEST_PATH), 'utf8'), original);
    assert.deepEqual(await tempLeftovers(ws), []);
    // Read by id: the run is nobody's (uid 65534), so root's listRuns rightly leaves it out.
    const runId = (await fsp.readdir(path.join(ws, '.amtp/runs'))).find((f) => f.endsWith('.json'))!.slice(0, -5);
    const run = (await new LowdbStore(ws).getRun(runId))!;
    assert.equal(run.status, 'failed');
    assert.ok(
      run.audit.some((a) => a.tool === 'fs.overwrite' && a.outcome === 'failed' && /EACCES/.test(a.detail ?? '')),
      JSON.stringify(run.audit),
    );
    // And a workspace where even .amtp cannot be made: a clear error before anything happens.
    spawnSync('chown', ['-R', '0:0', path.join(ws, '.amtp')]);
    await fsp.rm(path.join(ws, '.amtp'), { recursive: true });
    const res2 = await runCli(['generate', ws, '--provider', 'offline', '--json'], {}, undefined, { uid: 65534, gid: 65534 });
    assert.equal(res2.code, 4);
    assert.match(res2.stderr, /EACCES: permission denied, mkdir .*\.amtp/);
    assert.deepEqual(await listAll(path.join(ws, 'test')), [path.basename(GOOD_TEST_PATH)]);
    tally('4 faults: EACCES/ENOSPC', { tried: 2 });
  });

  describe('ENOSPC (a 64 KiB tmpfs)', () => {
    let mnt: string | undefined;
    beforeEach(async function () {
      if (process.getuid?.() !== 0) return this.skip();
      const dir = await tempDir('enospc-');
      const m = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir]);
      if (m.status !== 0) {
        await rmTemp(dir);
        return this.skip(); // not mountable here (no CAP_SYS_ADMIN): docs/security.md notes the gap
      }
      mnt = dir;
    });
    afterEach(async () => {
      if (!mnt) return;
      spawnSync('umount', [mnt]);
      await rmTemp(mnt);
      mnt = undefined;
    });
    async function fill(dir: string): Promise<void> {
      for (let i = 0; ; i++) {
        try {
          await fsp.writeFile(path.join(dir, `filler-${i}`), Buffer.alloc(4096, 1));
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === 'ENOSPC') return;
          throw e;
        }
      }
    }

    it('atomicWrite on a full disk: ENOSPC, the original file intact, no temp file left', async () => {
      const file = path.join(mnt!, 'keep.txt');
      await fsp.writeFile(file, 'original\n');
      await fill(mnt!);
      await assert.rejects(atomicWrite(file, 'x'.repeat(64 * 1024)), /ENOSPC/);
      assert.equal(await fsp.readFile(file, 'utf8'), 'original\n');
      assert.deepEqual(
        (await fsp.readdir(mnt!)).filter((n) => n.endsWith('.amtp-tmp')),
        [],
      );
      tally('4 faults: EACCES/ENOSPC', { tried: 1 });
    });

    it('the run store on a full disk: saveRun fails with ENOSPC, the last good run file is intact', async () => {
      const store = new LowdbStore(mnt!);
      await store.init();
      const now = new Date().toISOString();
      const saved = await store.saveRun({
        schema_version: 1,
        id: 'r_full',
        version: 0,
        status: 'running',
        stage: 'crawler',
        createdAt: now,
        updatedAt: now,
        params: params(),
        activities: [],
        files: [],
        approvals: [],
        audit: [],
      });
      const text = await fsp.readFile(path.join(mnt!, '.amtp/runs/r_full.json'), 'utf8');
      await fill(mnt!);
      await assert.rejects(store.saveRun({ ...saved, reason: 'y'.repeat(64 * 1024) }), /ENOSPC/);
      assert.equal(await fsp.readFile(path.join(mnt!, '.amtp/runs/r_full.json'), 'utf8'), text);
      assert.equal((await store.getRun('r_full'))!.version, saved.version);
      assert.deepEqual(await tempLeftovers(mnt!), [], 'the partial temp file is removed (B6, fixed)');
      tally('4 faults: EACCES/ENOSPC', { tried: 1 });
    });

    it('a pipeline whose test folder is full: the overwrite fails with a clear ENOSPC and the original test stays', async () => {
      await fsp.mkdir(path.join(ws, 'test'));
      spawnSync('mount', ['--bind', mnt!, path.join(ws, 'test')]);
      try {
        const original = "the person's test\n";
        await fsp.writeFile(path.join(ws, GOOD_TEST_PATH), original);
        await fill(path.join(ws, 'test'));
        await assert.rejects(startRun(openAiDeps(ws, fake.baseURL, { approver: approveAll }), params()), /ENOSPC/);
        assert.equal(await fsp.readFile(path.join(ws, GOOD_TEST_PATH), 'utf8'), original);
        const [run] = await new LowdbStore(ws).listRuns();
        assert.equal(run.status, 'failed');
        assert.match(run.reason!, /ENOSPC/);
        assert.deepEqual(
          (await fsp.readdir(path.join(ws, 'test'))).filter((n) => n.endsWith('.amtp-tmp')),
          [],
        );
        tally('4 faults: EACCES/ENOSPC', { tried: 1 });
      } finally {
        spawnSync('umount', [path.join(ws, 'test')]);
      }
    });
  });

  it('a provider that hangs: the per-request timeout fires, retries are bounded, the run fails with TransientLlmError', async () => {
    fake.script('crawler', { hang: true }, { hang: true }, { hang: true });
    const deps = {
      ...openAiDeps(ws, fake.baseURL),
      provider: new OpenAiProvider({ apiKey: 'sk-test-fake-key-000', baseURL: fake.baseURL, timeoutMs: 300 }),
      backoff: { rateLimitBaseMs: 1, transientBaseMs: 1, maxTransportRetries: 2 },
    };
    const t0 = Date.now();
    const run = await startRun(deps, params());
    assert.equal(run.status, 'failed');
    assert.deepEqual(
      run.activities[0].errors.map((e) => e.kind),
      ['TransientLlmError', 'TransientLlmError', 'TransientLlmError'],
    );
    assert.match(run.activities[0].errors[0].message, /timed out|timeout/i);
    assert.ok(Date.now() - t0 < 10_000);
    assert.deepEqual(
      (await artifactsOf(ws)).map((a) => a.kind),
      ['static_map'],
      "only AMTP's own static map; nothing from the crawler's model",
    );
    tally('4 faults: hang/cancel', { tried: 1 });
  });

  it('a provider that hangs: cancelling the run ends it promptly as cancelled, nothing persisted for the agent', async () => {
    fake.script('generator', { hang: true });
    const controller = new AbortController();
    const deps = {
      ...openAiDeps(ws, fake.baseURL, { signal: controller.signal }),
      provider: new OpenAiProvider({ apiKey: 'sk-test-fake-key-000', baseURL: fake.baseURL, timeoutMs: 60_000 }),
    };
    const t = setInterval(() => {
      if (fake.callsFor('generator').length) controller.abort();
    }, 20);
    const t0 = Date.now();
    try {
      const run = await startRun(deps, params());
      assert.equal(run.status, 'cancelled');
      assert.ok(Date.now() - t0 < 10_000, 'cancel does not wait for the 60 s timeout');
      assert.deepEqual(
        (await artifactsOf(ws)).map((a) => a.kind).sort(),
        ['crawler_batch', 'crawler_output', 'static_map'],
        'nothing of the generator',
      );
      assert.equal((await new LowdbStore(ws).getRun(run.id))!.status, 'cancelled');
      await assert.rejects(fsp.access(path.join(ws, '.amtp/runs', `${run.id}.lock`)), 'the lock is released');
    } finally {
      clearInterval(t);
    }
    tally('4 faults: hang/cancel', { tried: 1 });
  });

  it('SIGINT to the CLI while the provider hangs: the run is saved as cancelled (exit 130, as for any Ctrl-C)', async () => {
    fake.script('generator', { hang: true });
    const child = spawn(process.execPath, [CLI, 'generate', ws, '--provider', 'openai', '--json'], {
      env: { ...process.env, ...env() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    while (!fake.callsFor('generator').length) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGINT');
    const code = await new Promise<number | null>((r) => child.on('close', r));
    assert.equal(code, 130);
    assert.equal(JSON.parse(stdout).status, 'cancelled');
    tally('4 faults: hang/cancel', { tried: 1 });
  });

  it('two CLI runs on the same workspace at once: both complete, each in its own run file, nothing lost', async () => {
    const [a, b] = await Promise.all([0, 1].map(() => runCli(['generate', ws, '--provider', 'openai', '--yes', '--json'], env())));
    assert.equal(a.code, 0, a.stderr);
    assert.equal(b.code, 0, b.stderr);
    const ids = [JSON.parse(a.stdout).runId, JSON.parse(b.stdout).runId];
    assert.notEqual(ids[0], ids[1]);
    const store = new LowdbStore(ws);
    for (const id of ids) {
      const run = (await store.getRun(id))!;
      assert.equal(run.status, 'completed');
      for (const act of run.activities) await store.getArtifact(id, act.artifactId!); // integrity-checked load
    }
    assert.equal(isGoodTestFile(await fsp.readFile(path.join(ws, GOOD_TEST_PATH), 'utf8')), true);
    assert.deepEqual(await tempLeftovers(ws), []);
    tally('4 faults: concurrency', { tried: 2 });
  });

  async function concurrentResumes(): Promise<{ results: CliResult[]; runId: string; chaos: FakeOpenAi }> {
    const crashed = await runCli(['generate', ws, '--provider', 'openai', '--yes', '--json'], {
      ...env(),
      AMTP_CRASH_AT: 'crawler:committed',
    });
    assert.equal(crashed.signal, 'SIGKILL');
    const [run] = await new LowdbStore(ws).listRuns();
    // A slow model, so the two resumes overlap.
    const chaos = await new FakeOpenAi((req) => ({ ...goodModel(req), delayMs: 1500 })).start();
    const e = { ...env(), OPENAI_BASE_URL: chaos.baseURL };
    const results = await Promise.all([0, 1].map(() => runCli(['resume', run.id, ws, '--yes', '--json'], e)));
    return { results, runId: run.id, chaos };
  }

  it('two resumes of the same run at once: no lost writes, no corrupt store, the run ends whole', async () => {
    const { results, runId, chaos } = await concurrentResumes();
    try {
      const ok = results.filter((r) => r.code === 0);
      const refused = results.filter((r) => r.code !== 0);
      for (const r of refused) assert.match(r.stderr, /in use by process|changed by another process/, r.stderr);
      // Whatever the interleaving, a plain resume afterwards completes with every artifact intact.
      const last = ok.length ? ok[0] : await runCli(['resume', runId, ws, '--yes', '--json'], { ...env() });
      assert.equal(last.code, 0, last.stderr);
      const store = new LowdbStore(ws);
      const run = (await store.getRun(runId))!;
      assert.equal(run.status, 'completed');
      for (const act of run.activities) await store.getArtifact(runId, act.artifactId!);
      assert.equal(isGoodTestFile(await fsp.readFile(path.join(ws, GOOD_TEST_PATH), 'utf8')), true);
      tally('4 faults: concurrency', { tried: 2, note: `concurrent resumes: ${ok.length} completed, ${refused.length} refused` });
    } finally {
      await chaos.stop();
    }
  });

  it('[B4 fixed] two resumes of the same run at once: exactly one is refused and the other completes', async () => {
    const { results, chaos } = await concurrentResumes();
    await chaos.stop();
    assert.deepEqual(results.map((r) => r.code).sort(), [0, 4], results.map((r) => r.stderr).join('\n---\n'));
  });
});
