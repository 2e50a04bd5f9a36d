// A store or cache URL may carry a password. It goes to Postgres and Redis (started by
// scripts/services.mjs; trust authentication, so any password is accepted) and nowhere else: not in
// stdout or stderr, not in the recording, not in any table of the store, and not in the environment
// of the code AMTP runs (a written test approved with --yes dumps the environment it sees). And a
// repository's own settings never choose these services.
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { PostgresStore } from '../../server/src/store/postgres';
import { runCli } from '../helpers/cli';
import { FakeOpenAi, type ReceivedRequest, type ScriptedReply } from '../helpers/fakeOpenAi';
import { GOOD_BODY, goodModel, makeAddWorkspace } from '../helpers/scriptedModel';
import { cliEnv } from '../helpers/scaleRuns';
import { newDatabase, useServices } from '../helpers/services';
import { removeWorkspace } from '../helpers/workspaces';

const svc = useServices();
const STORE_PW = `pgpw-${randomBytes(8).toString('hex')}`;
const CACHE_PW = `rdpw-${randomBytes(8).toString('hex')}`;

/** goodModel, except that the add test also appends the environment it runs with to `seenFile`. */
function modelDumpingEnv(seenFile: string): (req: ReceivedRequest) => ScriptedReply {
  const body = `require('node:fs').appendFileSync(${JSON.stringify(seenFile)}, JSON.stringify(process.env) + '\\n');\n${GOOD_BODY}`;
  return (req) => {
    const reply = goodModel(req);
    if (req.agent !== 'engineer' || !('content' in reply) || typeof reply.content !== 'string') return reply;
    const out = JSON.parse(reply.content.replace(/^```json\n|\n```$/g, '')) as { tests: { body: string }[] };
    for (const t of out.tests) if (t.body === GOOD_BODY) t.body = body;
    return { content: '```json\n' + JSON.stringify(out, null, 2) + '\n```' };
  };
}

/** Every row of every table of the store's schema, as text. */
async function storeText(url: string): Promise<string> {
  const store = new PostgresStore(path.sep, url);
  try {
    return await store.query(async (c) => {
      const tables = (await c.query<{ t: string }>("SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'amtp'"))
        .rows;
      assert.ok(tables.length >= 8, tables.map((x) => x.t).join());
      let all = '';
      for (const { t } of tables) all += (await c.query(`SELECT x::text AS row FROM amtp."${t}" x`)).rows.map((r) => r.row).join('\n');
      return all;
    });
  } finally {
    await store.close();
  }
}

describe('passwords in service URLs', function () {
  this.timeout(300_000);

  it('reach neither the output, the recording, the store nor the code AMTP runs', async () => {
    const ws = await makeAddWorkspace('amtp-scale-secrets-');
    const seenFile = path.join(path.dirname(ws), 'seen.jsonl');
    const rec = path.join(path.dirname(ws), 'run.jsonl');
    const store = (await newDatabase(svc)).replace('postgres://amtp@', `postgres://amtp:${STORE_PW}@`);
    const cache = svc.redis.replace('redis://', `redis://:${CACHE_PW}@`);
    const fake = await new FakeOpenAi(modelDumpingEnv(seenFile)).start();
    try {
      const env = {
        AMTP_PROVIDER: 'openai',
        OPENAI_BASE_URL: fake.baseURL,
        OPENAI_API_KEY: 'sk-test-pw',
        AMTP_MODEL: 'm',
        AMTP_CACHE: cache,
      };
      const r = await runCli(['generate', ws, '--store', store, '--yes', '--json', '--no-characterize', '--record', rec], cliEnv(env));
      assert.equal(r.code, 0, r.stderr);
      assert.equal(JSON.parse(r.stdout).status, 'completed');
      const seen = await fsp.readFile(seenFile, 'utf8');
      assert.ok(seen.includes('"PATH"'), 'the written test ran and dumped its environment');
      const where = {
        stdout: r.stdout,
        stderr: r.stderr,
        recording: await fsp.readFile(rec, 'utf8'),
        store: await storeText(store),
        child: seen,
      };
      for (const [name, text] of Object.entries(where)) {
        assert.ok(!text.includes(STORE_PW), `the store password is in ${name}`);
        assert.ok(!text.includes(CACHE_PW), `the cache password is in ${name}`);
      }
      assert.doesNotMatch(seen, /AMTP_STORE|AMTP_CACHE|postgres:\/\/|redis:\/\//, 'no service URL reaches the child at all');
    } finally {
      await fake.stop();
      await removeWorkspace(ws);
    }
  });

  it("a repository's settings cannot choose the store, cache or queue: the run stays in .amtp/", async () => {
    const ws = await makeAddWorkspace('amtp-scale-reposet-');
    try {
      const planted = { 'amtp.store': svc.postgres, 'amtp.cache': 'redis://127.0.0.1:1', 'amtp.queue': svc.redis };
      await fsp.mkdir(path.join(ws, '.vscode'), { recursive: true });
      await fsp.writeFile(path.join(ws, '.vscode', 'settings.json'), JSON.stringify(planted));
      const r = await runCli(['generate', ws, '--provider', 'offline', '--no-verify', '--no-characterize', '--json'], cliEnv({}));
      assert.equal(r.code, 0, r.stderr);
      const { runId } = JSON.parse(r.stdout) as { runId: string };
      const files = await fsp.readdir(path.join(ws, '.amtp', 'runs'));
      assert.ok(files.includes(`${runId}.json`), files.join());
    } finally {
      await removeWorkspace(ws);
    }
  });
});
