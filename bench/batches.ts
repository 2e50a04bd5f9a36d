// Bounded LLM work on a real package of 250+ modules (ramda): how many requests each agent makes,
// the largest request and reply, the share of the package's runtime exports the plan reaches, and
// wall time — for the offline provider and for a scripted model behind a loopback OpenAI server.
// Figures, not asserts. Run: npm run bench -- batches
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { FakeOpenAi } from '../test/helpers/fakeOpenAi';
import { goodModel } from '../test/helpers/scriptedModel';

const REPO = path.resolve(__dirname, '../..');
const WORK = path.join(REPO, 'bench/.work');
const PKG = process.env.AMTP_BENCH_PACKAGE ?? 'ramda@0.30.1';
const CLI = path.join(REPO, 'dist/cli.js');

function unpack(spec: string): string {
  const dir = path.join(WORK, 'pkgs', spec.replace(/[@/]/g, '_'));
  if (!existsSync(path.join(dir, 'package.json'))) {
    mkdirSync(path.dirname(dir), { recursive: true });
    const tgz = execFileSync('npm', ['pack', spec, '--silent', '--pack-destination', path.dirname(dir)], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .pop()!;
    mkdirSync(dir, { recursive: true });
    execFileSync('tar', ['xzf', path.join(path.dirname(dir), tgz), '-C', dir, '--strip-components=1']);
  }
  return dir;
}

/** The names a consumer gets from `require(package)`: what the plan should reach. */
function runtimeExports(dir: string): string[] {
  const r = spawnSync(process.execPath, ['-e', `console.log(JSON.stringify(Object.keys(require(${JSON.stringify(dir)}))))`], {
    encoding: 'utf8',
  });
  return JSON.parse(r.stdout) as string[];
}

interface Line {
  type: string;
  agent_id?: string;
  recipient_agent_id?: string;
  payload_ref?: string;
  hash?: string;
  data?: unknown;
}

function sizes(recording: string): { agent: string; requests: number; maxRequest: number; maxReply: number }[] {
  const lines = readFileSync(recording, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);
  const payloads = new Map(lines.filter((l) => l.type === 'payload').map((l) => [l.hash!, l.data]));
  const bytes = (ref?: string) => Buffer.byteLength(JSON.stringify(payloads.get(ref ?? '') ?? ''), 'utf8');
  return ['crawler', 'generator', 'engineer'].map((agent) => {
    const sent = lines.filter((l) => l.type === 'task_sent' && l.recipient_agent_id === agent);
    const replies = lines.filter((l) => l.type === 'response_sent' && l.agent_id === agent);
    return {
      agent,
      requests: sent.length,
      maxRequest: Math.max(0, ...sent.map((l) => bytes(l.payload_ref))),
      maxReply: Math.max(0, ...replies.map((l) => bytes(l.payload_ref))),
    };
  });
}

function plannedNames(ws: string, runId: string): Set<string> {
  const dir = path.join(ws, '.amtp/artifacts', runId);
  for (const f of readdirSync(dir)) {
    const a = JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as { kind: string; content: { cases: { target: { symbol: string } }[] } };
    if (a.kind === 'generator_output') return new Set(a.content.cases.map((c) => c.target.symbol.replace(/^.*\./, '')));
  }
  return new Set();
}

async function one(label: string, env: Record<string, string>, args: string[]): Promise<void> {
  const src = unpack(PKG);
  const ws = path.join(WORK, `batches-${label}`);
  rmSync(ws, { recursive: true, force: true });
  execFileSync('cp', ['-r', src, ws]);
  const rec = path.join(WORK, `batches-${label}.jsonl`);
  const t0 = performance.now();
  // Asynchronous: the scripted model answers from this process's event loop.
  const r = await promisify(execFile)(process.execPath, [CLI, 'generate', ws, '--no-verify', '--json', '--record', rec, ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    maxBuffer: 1 << 28,
  }).catch((e: { stdout?: string; stderr?: string }) => ({ stdout: e.stdout ?? '', stderr: e.stderr ?? '' }));
  if (!r.stdout.trim()) throw new Error(`${label}: the run printed no summary: ${r.stderr.slice(-2000)}`);
  const wall = (performance.now() - t0) / 1000;
  const summary = JSON.parse(r.stdout) as { runId: string; status: string };
  const exportsAll = runtimeExports(src);
  const planned = plannedNames(ws, summary.runId);
  const reached = exportsAll.filter((n) => planned.has(n)).length;
  console.log(
    `\n${label}: ${PKG}, status ${summary.status}, ${wall.toFixed(1)} s wall; plans reach ${reached}/${exportsAll.length} runtime exports (${((100 * reached) / Math.max(1, exportsAll.length)).toFixed(0)}%)`,
  );
  console.log('| agent | requests | largest request | largest reply |\n|---|---:|---:|---:|');
  for (const s of sizes(rec))
    console.log(`| ${s.agent} | ${s.requests} | ${(s.maxRequest / 1024).toFixed(1)} KB | ${(s.maxReply / 1024).toFixed(1)} KB |`);
}

async function main(): Promise<void> {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: npm run build');
  await one('offline', {}, ['--provider', 'offline']);
  const fake = await new FakeOpenAi(goodModel).start();
  try {
    await one('scripted-model', { OPENAI_API_KEY: 'sk-bench-0000', OPENAI_BASE_URL: fake.baseURL, AMTP_MODEL: 'scripted' }, [
      '--provider',
      'openai',
    ]);
  } finally {
    await fake.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
