// Latency-bound fan-out: a 200-module workspace and a loopback model that answers every request
// after 2 s, run through 1 and then 4 `amtp worker` processes (--jobs 1 each), with Postgres 15 and
// Redis 7 started by scripts/services.mjs. Prints model calls per minute for each, their ratio (the
// goal is at least 3× with 4 workers), and each worker's peak memory. Figures, not asserts.
// Run: npm run bench -- scale
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FakeOpenAi } from '../test/helpers/fakeOpenAi';
import { offlineReply } from '../test/helpers/offlineModel';
import { newDatabase, startServices, stopServices, type Services } from '../test/helpers/services';

const REPO = path.resolve(__dirname, '../..');
const CLI = path.join(REPO, 'dist/cli.js');
const MODULES = 200;
const LATENCY_MS = 2000;

/** 200 small documented modules behind one index, committed to git (a queue's jobs name their commit). */
function workspace(root: string, name: string): string {
  const ws = path.join(root, name, 'lib200');
  mkdirSync(path.join(ws, 'src'), { recursive: true });
  const names = Array.from({ length: MODULES }, (_, i) => `scale${i}`);
  for (const [i, n] of names.entries())
    writeFileSync(
      path.join(ws, 'src', `${n}.js`),
      `/**\n * Multiplies a number by ${i + 2}.\n * @example ${n}(3) // => ${3 * (i + 2)}\n */\nfunction ${n}(x) {\n  return x * ${i + 2};\n}\nmodule.exports = { ${n} };\n`,
    );
  writeFileSync(path.join(ws, 'index.js'), names.map((n) => `exports.${n} = require('./src/${n}').${n};`).join('\n') + '\n');
  writeFileSync(
    path.join(ws, 'package.json'),
    JSON.stringify({ name: 'lib200', version: '1.0.0', main: 'index.js', scripts: { test: 'node --test' } }),
  );
  const git = (...a: string[]) =>
    execFileSync('git', ['-c', 'user.email=b@amtp.test', '-c', 'user.name=b', ...a], { cwd: ws, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'bench');
  return ws;
}

interface Result {
  workers: number;
  calls: number;
  wallS: number;
  modelS: number;
  peakRssMb: number[];
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ status: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'ignore', 'ignore'] });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status }));
  });
}

function peakRss(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}

async function measure(svc: Services, ws: string, workers: number, fake: FakeOpenAi, arrivals: number[]): Promise<Result> {
  const env = {
    ...process.env,
    AMTP_STORE: await newDatabase(svc),
    AMTP_QUEUE: svc.redis,
    AMTP_PROVIDER: 'openai',
    OPENAI_BASE_URL: fake.baseURL,
    OPENAI_API_KEY: 'sk-bench',
  };
  const procs = Array.from({ length: workers }, () =>
    spawn(process.execPath, [CLI, 'worker', ws, '--jobs', '1'], { env, stdio: ['ignore', 'ignore', 'pipe'] }),
  );
  try {
    await Promise.all(
      procs.map(
        (p) => new Promise<void>((resolve) => p.stderr!.on('data', (d: Buffer) => /listening for jobs/.test(d.toString()) && resolve())),
      ),
    );
    const before = arrivals.length;
    const t0 = Date.now();
    // Not execFileSync: the loopback model answers from this process's event loop.
    const { status } = await run(
      process.execPath,
      [CLI, 'generate', ws, '--no-verify', '--no-characterize', '--concurrency', '16', '--json'],
      env,
    );
    if (status !== 0) throw new Error(`generate exited ${status}`);
    const wallS = (Date.now() - t0) / 1000;
    const mine = arrivals.slice(before);
    return { workers, calls: mine.length, wallS, modelS: (Date.now() - mine[0]) / 1000, peakRssMb: procs.map((p) => peakRss(p.pid!)) };
  } finally {
    for (const p of procs) p.kill('SIGKILL');
  }
}

async function main(): Promise<void> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'amtp-bench-scale-'));
  const svc = startServices();
  const arrivals: number[] = [];
  const fake = await new FakeOpenAi((req) => {
    arrivals.push(Date.now());
    return offlineReply(req, LATENCY_MS);
  }).start();
  try {
    const results: Result[] = [];
    for (const n of [1, 4]) results.push(await measure(svc, workspace(root, `w${n}`), n, fake, arrivals));
    const perMin = (r: Result) => (r.calls / r.modelS) * 60;
    for (const r of results)
      console.log(
        `scale: ${r.workers} worker(s): ${r.calls} model calls (${LATENCY_MS} ms each) in ${r.modelS.toFixed(1)} s of model work, ${r.wallS.toFixed(1)} s wall: ${perMin(r).toFixed(1)} calls/min; peak RSS per worker ${r.peakRssMb.join(', ')} MB`,
      );
    console.log(`scale: 4 workers / 1 worker throughput = ${(perMin(results[1]) / perMin(results[0])).toFixed(2)}× (goal ≥ 3×)`);
  } finally {
    await fake.stop();
    stopServices(svc);
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
