import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { validate } from '../../server/src/contracts/validate';
import { canonicalJson } from '../../server/src/core/canonical';
import { LowdbStore } from '../../server/src/store/lowdb';
import { parseRecording } from '../../server/src/record/recording';
import { replayRecording } from '../../server/src/record/replay';
import { runCli } from '../helpers/cli';
import { FakeOpenAi } from '../helpers/fakeOpenAi';
import { goodModel, makeAddWorkspace } from '../helpers/scriptedModel';

const KEY = 'sk-test-RECORDING-key-1a2b3c4d5e6f';

describe('record / replay / verify-determinism', function () {
  this.timeout(120_000);
  let fake: FakeOpenAi;
  let dir: string;
  let ws: string;
  let recording: string;
  let summary: { runId: string; activities: { agent: string; artifactId: string }[]; files: { path: string }[] };

  before(async () => {
    fake = await new FakeOpenAi(goodModel).start();
    // A messy but successful run: a rate limit and a fenced-prose reply on the way.
    fake.script('crawler', { status: 429, headers: { 'retry-after-ms': '5' } });
    fake.script('generator', { content: 'Here you go!\n```json\n{}\n```' });
    ws = await makeAddWorkspace();
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'amtp-rec-'));
    recording = path.join(dir, 'run.jsonl');
    const r = await runCli(['generate', ws, '--provider', 'openai', '--yes', '--json', '--record', recording], {
      OPENAI_API_KEY: KEY,
      OPENAI_BASE_URL: fake.baseURL,
      AMTP_MODEL: 'm',
    });
    assert.equal(r.code, 0, r.stderr);
    summary = JSON.parse(r.stdout);
  });
  after(async () => {
    await fake.stop();
    await fsp.rm(dir, { recursive: true, force: true });
    await fsp.rm(path.dirname(ws), { recursive: true, force: true });
  });

  it('every line validates against the published schema; bad events are rejected', async () => {
    const lines = (await fsp.readFile(recording, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    for (const l of lines) assert.deepEqual(validate('recording-event', l), { ok: true }, JSON.stringify(l).slice(0, 200));
    const types = new Set(lines.map((l) => l.type));
    for (const t of ['header', 'payload', 'task_sent', 'task_received', 'response_sent', 'tool_call', 'tool_return', 'state_transition'])
      assert.ok(types.has(t), t);
    const good = lines.find((l) => l.type === 'task_sent');
    const bad = [
      { ...good, event_id: 'not-a-uuid' },
      { ...good, event_id: '123e4567-e89b-12d3-a456-426614174000' }, // UUID v1, not v4
      { ...good, timestamp_ns: 1700000000000000000 },
      { ...good, payload_hash: 'abc' },
      { ...good, parent_event_id: undefined },
      { ...good, recipient_agent_id: 'mallory' },
      { ...good, extra: 1 },
      { ...good, type: 'task_dropped' },
      { type: 'header', format: 'amtp-recording', format_version: 2, sanitizer: 'v1.0.0', schemas: {}, run: {} },
    ];
    for (const b of bad) assert.equal(validate('recording-event', b).ok, false, JSON.stringify(b).slice(0, 120));
  });

  it('a header with the mutation setting validates; verify-determinism reports a recording it cannot replay, never crashes', async () => {
    const lines = (await fsp.readFile(recording, 'utf8')).trim().split('\n');
    const header = JSON.parse(lines[0]);
    header.run.verify = { ...header.run.verify, mutation: { enabled: true, budgetSeconds: 60 } };
    assert.deepEqual(validate('recording-event', header), { ok: true });
    header.run.verify.mutation.surprise = 1;
    const broken = path.join(dir, 'broken.jsonl');
    await fsp.writeFile(broken, [JSON.stringify(header), ...lines.slice(1)].join('\n') + '\n');
    const r = await runCli(['verify-determinism', broken]);
    assert.notEqual(r.code, 0);
    assert.match(r.stdout + r.stderr, /could not be replayed/);
    assert.doesNotMatch(r.stdout + r.stderr, /Cannot read properties/);
  });

  it('no recorded line contains the API key', async () => {
    const text = await fsp.readFile(recording, 'utf8');
    assert.ok(!text.includes(KEY));
    assert.ok(!/Bearer\s+sk-/.test(text));
  });

  it('replaying offline gives the recorded artifacts and files byte for byte', async () => {
    const out = await replayRecording(recording, path.join(dir, 'replay-1'));
    assert.equal(out.error, undefined);
    assert.equal((out.final as { status: string }).status, 'completed');
    const store = new LowdbStore(ws);
    assert.deepEqual(
      out.artifacts.map((a) => a.id),
      summary.activities.map((a) => a.artifactId),
    );
    for (const a of out.artifacts) assert.equal(a.text, await store.artifactRaw(summary.runId, a.id));
    assert.deepEqual(
      out.files.map((f) => f.path),
      summary.files.map((f) => f.path),
    );
    for (const f of out.files) assert.equal(f.content, await fsp.readFile(path.join(ws, f.path), 'utf8'));
    // The recorded 429 and malformed reply were replayed too, as in the original run.
    const run = out.final as { activities: { agent: string; errors: string[] }[] };
    assert.deepEqual(
      run.activities.map((a) => a.errors),
      [['RateLimited'], ['MalformedLlmOutput'], []],
    );
  });

  it('the same graph in another line order gives identical replay output', async () => {
    const lines = (await fsp.readFile(recording, 'utf8')).trim().split('\n');
    const shuffled = [...lines].reverse();
    [shuffled[1], shuffled[shuffled.length - 2]] = [shuffled[shuffled.length - 2], shuffled[1]];
    const other = path.join(dir, 'shuffled.jsonl');
    await fsp.writeFile(other, shuffled.join('\n') + '\n');
    assert.deepEqual(
      parseRecording(shuffled.join('\n')).events.map((e) => e.event_id),
      parseRecording(lines.join('\n')).events.map((e) => e.event_id),
    );
    const a = await replayRecording(recording, path.join(dir, 'order-a'));
    const b = await replayRecording(other, path.join(dir, 'order-b'));
    assert.equal(canonicalJson(a), canonicalJson(b));
  });

  it('verify-determinism exits 0 on a clean recording', async () => {
    const r = await runCli(['verify-determinism', recording]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^deterministic: \d+ recorded events replayed, 3 artifacts, 1 files, final state completed/);
  });

  for (const inject of ['tool', 'reply'] as const) {
    it(`verify-determinism exits non-zero with a diff naming the first divergent event when a ${inject} result is non-deterministic`, async () => {
      const r = await runCli(['verify-determinism', recording], { AMTP_INJECT_NONDETERMINISM: inject });
      assert.equal(r.code, 1, r.stdout);
      assert.match(r.stderr, /^--- replay-a/m);
      assert.match(r.stderr, /^\+\+\+ replay-b/m);
      const m = /first divergent event: ([0-9a-f-]{36}) \((\w+) #(\d+)/.exec(r.stderr);
      assert.ok(m, r.stderr.slice(-500));
      const events = parseRecording(await fsp.readFile(recording, 'utf8')).events;
      const named = events.find((e) => e.event_id === m[1])!;
      assert.equal(named.type, inject === 'tool' ? 'tool_return' : 'response_sent');
      if (inject === 'tool') assert.equal(m[3], '1', 'the very first tool result already differs');
    });
  }

  it('a request that is not in the recording is an error naming the first divergent event, with no fallback', async () => {
    const text = await fsp.readFile(recording, 'utf8');
    const rec = parseRecording(text);
    // Drop the generator's successful reply: the replay must stop there, not invent one.
    const lastGen = rec.events.filter((e) => e.type === 'response_sent' && e.agent_id === 'generator').at(-1)!;
    const cut = text
      .split('\n')
      .filter((l) => !l.includes(`"event_id":"${lastGen.event_id}"`))
      .map((l) => l.replace(`"parent_event_id":"${lastGen.event_id}"`, `"parent_event_id":"${lastGen.parent_event_id}"`))
      .join('\n');
    const file = path.join(dir, 'cut.jsonl');
    await fsp.writeFile(file, cut);
    const out = await replayRecording(file, path.join(dir, 'cut'));
    assert.equal((out.final as { status: string }).status, 'failed');
    const task = rec.events.filter((e) => e.type === 'task_sent' && e.recipient_agent_id === 'generator').at(-1)!;
    assert.match(JSON.stringify(out.final), /replay diverged/);
    assert.match(JSON.stringify(out.final), new RegExp(task.event_id));
  });

  it('a corrupted payload or a dangling parent is a clear load error', async () => {
    const lines = (await fsp.readFile(recording, 'utf8')).trim().split('\n');
    const tampered = lines
      .map((l) => (l.includes('"type":"payload"') && l.includes('adder') ? l.replace('adder', 'adder2') : l))
      .join('\n');
    assert.throws(() => parseRecording(tampered), /does not match its hash/);
    const ev = lines.find((l) => l.includes('"type":"tool_call"'))!;
    const orphan = lines.filter((l) => l !== ev).join('\n');
    assert.throws(() => parseRecording(orphan), /unknown parent/);
  });
});

describe('recording format compatibility', () => {
  it('a format 1 recording (one session per agent, before batching) is refused with what to do', () => {
    const header = { type: 'header', format: 'amtp-recording', format_version: 1, sanitizer: 'v1.0.0', schemas: {}, run: {} };
    assert.throws(() => parseRecording(JSON.stringify(header), 'old.jsonl'), /old\.jsonl:1: a format 1 recording .* record the run again/);
  });
});
