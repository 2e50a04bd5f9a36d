import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { existsSync, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { FakeOpenAi, type ScriptedReply } from '../helpers/fakeOpenAi';
import { resolveParams } from '../../server/src/pipeline/config';
import { startRun } from '../../server/src/pipeline/orchestrator';
import { LowdbStore } from '../../server/src/store/lowdb';
import type { RunRecord } from '../../server/src/core/run';
import { CLI } from '../helpers/cli';
import { openAiDeps } from '../helpers/pipelineDeps';
import { GOOD_TEST_PATH, goodModel, isGoodTestFile, makeAddWorkspace } from '../helpers/scriptedModel';

import { figures, rmTemp, seeded, tally, tempLeftovers } from './helpers/common';

const RUNS = 20;
const SEED = 8;

/** Seeded faults: 15 % 429 (half with Retry-After), 15 % 500, 3 % connection reset, the rest a good reply after 5–30 ms. */
function chaos(seed: number): (req: Parameters<typeof goodModel>[0]) => ScriptedReply {
  const rnd = seeded(seed);
  return (req) => {
    const r = rnd();
    const delayMs = 5 + Math.floor(rnd() * 25);
    if (r < 0.075) return { status: 429, headers: { 'retry-after-ms': '5' }, delayMs };
    if (r < 0.15) return { status: 429, delayMs };
    if (r < 0.3) return { status: 500, delayMs };
    if (r < 0.33) return { destroy: true };
    return { ...(goodModel(req) as ScriptedReply), delayMs };
  };
}

async function checkStore(ws: string, run: RunRecord): Promise<void> {
  const store = new LowdbStore(ws);
  const onDisk = (await store.getRun(run.id))!;
  assert.equal(onDisk.status, run.status);
  for (const a of onDisk.activities) if (a.artifactId) await store.getArtifact(run.id, a.artifactId);
  assert.deepEqual(await tempLeftovers(ws), []);
  await assert.rejects(fsp.access(path.join(ws, '.amtp/runs', `${run.id}.lock`)), 'lock released');
  if (run.status === 'completed') assert.equal(isGoodTestFile(await fsp.readFile(path.join(ws, GOOD_TEST_PATH), 'utf8')), true);
  else assert.match(run.reason ?? '', /gave up after \d+ retries|malformed/, run.reason);
}

describe('hostile 5: load — 20 pipelines at once against a server that injects 429s, 500s and resets (seeded)', function () {
  this.timeout(180_000);

  it(`${RUNS} in-process runs: every run completes or fails cleanly, the stores are whole, no unhandled rejection`, async () => {
    const server = await new FakeOpenAi(chaos(SEED)).start();
    const rejections: unknown[] = [];
    const onRejection = (e: unknown) => rejections.push(e);
    process.on('unhandledRejection', onRejection);
    const workspaces = await Promise.all(Array.from({ length: RUNS }, () => makeAddWorkspace('amtp-hostile-load-')));
    let peakRss = process.memoryUsage().rss;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }, 20);
    const t0 = performance.now();
    try {
      const settled = await Promise.allSettled(
        workspaces.map((ws) =>
          startRun(
            { ...openAiDeps(ws, server.baseURL), backoff: { rateLimitBaseMs: 5, transientBaseMs: 5, maxTransportRetries: 5 } },
            resolveParams({ provider: 'openai', model: 'm' }),
          ),
        ),
      );
      const seconds = (performance.now() - t0) / 1000;
      clearInterval(sampler);
      const threw = settled.filter((s) => s.status === 'rejected').map((s) => String((s as PromiseRejectedResult).reason));
      const runs = settled.filter((s): s is PromiseFulfilledResult<RunRecord> => s.status === 'fulfilled').map((s) => s.value);
      const errorsByKind: Record<string, number> = {};
      for (const r of runs) for (const a of r.activities) for (const e of a.errors) errorsByKind[e.kind] = (errorsByKind[e.kind] ?? 0) + 1;
      const status: Record<string, number> = {};
      for (const r of runs) status[r.status] = (status[r.status] ?? 0) + 1;
      figures.loadInProcess = {
        runs: RUNS,
        seconds: +seconds.toFixed(2),
        runsPerSecond: +(RUNS / seconds).toFixed(2),
        status,
        errorsByKind,
        serverAnswered: server.answered,
        peakRssMiB: +(peakRss / 2 ** 20).toFixed(1),
        maxRssMiB: +(process.resourceUsage().maxRSS / 1024).toFixed(1),
        unhandledRejections: rejections.length,
        threw: threw.length,
      };
      assert.deepEqual(threw, [], 'startRun never throws for a provider fault');
      assert.deepEqual(rejections, []);
      for (const [i, r] of runs.entries()) {
        assert.ok(r.status === 'completed' || r.status === 'failed', r.status);
        await checkStore(workspaces[i], r);
      }
      assert.ok((errorsByKind.RateLimited ?? 0) > 0 && (errorsByKind.TransientLlmError ?? 0) > 0, 'the schedule did inject faults');
      tally('5 load (in-process)', { tried: RUNS, failures: threw.length + rejections.length });
    } finally {
      clearInterval(sampler);
      process.off('unhandledRejection', onRejection);
      await server.stop();
      await Promise.all(workspaces.map((ws) => rmTemp(path.dirname(ws))));
    }
  });

  it(`${RUNS} CLI processes at once: exit 0 or 4 with a typed summary, whole stores; child peak RSS measured`, async () => {
    const server = await new FakeOpenAi(chaos(SEED + 1)).start();
    const workspaces = await Promise.all(Array.from({ length: RUNS }, () => makeAddWorkspace('amtp-hostile-loadcli-')));
    const timeBin = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
    const env = {
      ...process.env,
      OPENAI_API_KEY: 'sk-test-load-key-00000000',
      OPENAI_BASE_URL: server.baseURL,
      AMTP_MODEL: 'm',
      AMTP_BACKOFF_SCALE: '0.001',
      AMTP_PROVIDER: undefined,
      AMTP_CRASH_AT: undefined,
    };
    const t0 = performance.now();
    try {
      const results = await Promise.all(
        workspaces.map(
          (ws) =>
            new Promise<{ code: number | null; stdout: string; stderr: string; rssKiB?: number }>((resolve, reject) => {
              const argv = [process.execPath, CLI, 'generate', ws, '--provider', 'openai', '--yes', '--json'];
              const child = timeBin
                ? spawn(timeBin, ['-f', 'AMTP_MAXRSS_KIB=%M', ...argv], { env })
                : spawn(argv[0], argv.slice(1), { env });
              let stdout = '';
              let stderr = '';
              child.stdout.on('data', (d: Buffer) => (stdout += d));
              child.stderr.on('data', (d: Buffer) => (stderr += d));
              child.on('error', reject);
              child.on('close', (code) => {
                const m = /AMTP_MAXRSS_KIB=(\d+)/.exec(stderr);
                resolve({ code, stdout, stderr, rssKiB: m ? Number(m[1]) : undefined });
              });
            }),
        ),
      );
      const seconds = (performance.now() - t0) / 1000;
      const status: Record<string, number> = {};
      const errorsByKind: Record<string, number> = {};
      for (const [i, r] of results.entries()) {
        assert.ok(r.code === 0 || r.code === 4, `exit ${r.code}: ${r.stderr}`);
        const summary = JSON.parse(r.stdout) as {
          runId: string;
          status: RunRecord['status'];
          activities: { errors: { kind: string }[] }[];
        };
        status[summary.status] = (status[summary.status] ?? 0) + 1;
        for (const a of summary.activities) for (const e of a.errors) errorsByKind[e.kind] = (errorsByKind[e.kind] ?? 0) + 1;
        const run = (await new LowdbStore(workspaces[i]).getRun(summary.runId))!;
        await checkStore(workspaces[i], run);
      }
      const rss = results.map((r) => r.rssKiB ?? 0);
      figures.loadCli = {
        runs: RUNS,
        seconds: +seconds.toFixed(2),
        runsPerSecond: +(RUNS / seconds).toFixed(2),
        status,
        errorsByKind,
        serverAnswered: server.answered,
        childPeakRssMiB: timeBin ? +(Math.max(...rss) / 1024).toFixed(1) : null,
        childMedianRssMiB: timeBin ? +(rss.sort((a, b) => a - b)[rss.length >> 1] / 1024).toFixed(1) : null,
      };
      tally('5 load (CLI processes)', { tried: RUNS });
    } finally {
      await server.stop();
      await Promise.all(workspaces.map((ws) => rmTemp(path.dirname(ws))));
    }
  });
});
