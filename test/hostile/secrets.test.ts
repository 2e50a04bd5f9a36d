import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { AmtpService, type ClientPort } from '../../server/src/lsp/service';
import { REDACTED } from '../../server/src/util/redact';
import { runCli } from '../helpers/cli';
import { FakeOpenAi } from '../helpers/fakeOpenAi';
import { goodModel, makeAddWorkspace } from '../helpers/scriptedModel';
import { figures, listAll, rmTemp, tally } from './helpers/common';

const KEY = `sk-hostile-${randomBytes(16).toString('hex')}`;
// Key-shaped strings planted in the workspace (README prose, a config file, a code comment).
const PLANTED = [
  `sk-proj-${randomBytes(15).toString('hex')}`,
  `AKIA${randomBytes(8).toString('hex').toUpperCase()}`,
  `ghp_${randomBytes(18).toString('hex')}`,
];

async function plant(ws: string): Promise<void> {
  await fsp.appendFile(
    path.join(ws, 'README.md'),
    `\n## Configuration\n\nOur staging key is ${PLANTED[0]} (do not share). AWS: ${PLANTED[1]}.\n`,
  );
  await fsp.writeFile(path.join(ws, 'config.js'), `// token ${PLANTED[2]}\nmodule.exports = { apiKey: "${PLANTED[0]}" };\n`);
}

/** Every file under dir whose bytes contain needle, as relative paths. */
async function filesContaining(dir: string, needle: string): Promise<string[]> {
  const hits: string[] = [];
  for (const rel of await listAll(dir)) {
    const st = await fsp.lstat(path.join(dir, rel));
    if (st.isFile() && (await fsp.readFile(path.join(dir, rel), 'utf8')).includes(needle)) hits.push(rel);
  }
  return hits;
}

describe('hostile 6: secrets', function () {
  this.timeout(120_000);
  let fake: FakeOpenAi;
  let ws: string;
  beforeEach(async () => {
    ws = await makeAddWorkspace('amtp-hostile-secret-');
    await plant(ws);
    // A hostile endpoint: its first error echoes the key it was sent, as some proxies do.
    fake = await new FakeOpenAi(goodModel).start();
    fake.script('crawler', { status: 500, body: { error: { message: `upstream rejected key ${KEY} (Authorization: Bearer ${KEY})` } } });
    fake.script('generator', {
      status: 429,
      body: { error: { message: `quota for ${KEY} exceeded` } },
      headers: { 'retry-after-ms': '1' },
    });
  });
  afterEach(async () => {
    await fake.stop();
    await rmTemp(path.dirname(ws));
  });

  it('CLI: the API key is nowhere in stdout, stderr, the recording, the run file or the artifacts; planted keys are not in the recording', async () => {
    const rec = path.join(path.dirname(ws), 'run.jsonl');
    const res = await runCli(['generate', ws, '--provider', 'openai', '--yes', '--json', '--record', rec], {
      OPENAI_API_KEY: KEY,
      OPENAI_BASE_URL: fake.baseURL,
      AMTP_MODEL: 'm',
      AMTP_BACKOFF_SCALE: '0.001',
    });
    assert.equal(res.code, 0, res.stderr);
    assert.equal(fake.requests[0].headers.authorization, `Bearer ${KEY}`, 'the key did go to the endpoint (that is its purpose)');
    const summary = JSON.parse(res.stdout);
    assert.deepEqual(
      summary.activities.flatMap((a: { errors: { kind: string }[] }) => a.errors.map((e) => e.kind)),
      ['TransientLlmError', 'RateLimited'],
      'the echoing errors were hit',
    );
    const where: Record<string, string[]> = {
      stdout: res.stdout.includes(KEY) ? ['stdout'] : [],
      stderr: res.stderr.includes(KEY) ? ['stderr'] : [],
      recording: (await fsp.readFile(rec, 'utf8')).includes(KEY) ? ['run.jsonl'] : [],
      store: await filesContaining(path.join(ws, '.amtp'), KEY),
    };
    const recording = await fsp.readFile(rec, 'utf8');
    const plantedInRecording = PLANTED.filter((p) => recording.includes(p));
    // Where planted workspace secrets do go (by design: workspace content is what the agents analyse).
    const sentToModel = PLANTED.filter((p) => fake.requests.some((r) => JSON.stringify(r.body).includes(p)));
    const inStore = (await Promise.all(PLANTED.map((p) => filesContaining(path.join(ws, '.amtp'), p)))).flat();
    figures.secrets = {
      keyFoundIn: Object.values(where).flat(),
      plantedInRecording: plantedInRecording.length,
      plantedSentToModel: sentToModel.length,
      plantedInStoreFiles: inStore.length,
      redactionsInRecording: recording.split(REDACTED).length - 1,
    };
    tally('6 secrets', { tried: 4 + PLANTED.length, failures: Object.values(where).flat().length + plantedInRecording.length });
    assert.deepEqual(where, { stdout: [], stderr: [], recording: [], store: [] });
    assert.deepEqual(plantedInRecording, []);
    assert.ok(recording.includes(REDACTED));
  });

  it('language server: log lines, the recording and the store never hold the key', async () => {
    const logs: string[] = [];
    const port: ClientPort = {
      runChanged: () => undefined,
      requestApproval: async () => ({ decision: 'approved' }),
      progress: () => undefined,
      log: (l) => logs.push(l),
    };
    const svc = new AmtpService(ws, port, {
      trusted: true,
      settings: { provider: 'openai', baseURL: fake.baseURL, model: 'm', record: true } as never,
    });
    svc.setCredentials({ apiKey: KEY });
    await svc.generate({ depth: 'standard', framework: 'auto' });
    await svc.idle();
    const [run] = await svc.store.listRuns();
    assert.ok(run, 'a run was made');
    assert.ok(logs.some((l) => /API key set/.test(l)));
    const hits = [...logs.filter((l) => l.includes(KEY)), ...(await filesContaining(path.join(ws, '.amtp'), KEY))];
    const recordings = (await listAll(path.join(ws, '.amtp'))).filter((p) => p.endsWith('.jsonl'));
    assert.ok(recordings.length === 1, 'the run was recorded');
    const planted = (await Promise.all(PLANTED.map((p) => filesContaining(path.join(ws, '.amtp', 'recordings'), p)))).flat();
    tally('6 secrets', { tried: 3, failures: hits.length + planted.length });
    assert.deepEqual(hits, []);
    assert.deepEqual(planted, []);
  });
});
