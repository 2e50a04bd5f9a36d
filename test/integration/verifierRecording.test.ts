// One recording for the whole run (format_version 3): the agents' batches, the verifier's test runs,
// its repair sessions and every file it rewrites. `amtp verify-determinism` replays all of it and
// fails when a recorded repair reply was changed (the rewrite then differs from the recorded one).
import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { canonicalJson, sha256 } from '../../server/src/core/canonical';
import { parseRecording } from '../../server/src/record/recording';
import { replayRecording } from '../../server/src/record/replay';
import { runCli } from '../helpers/cli';
import { FakeOpenAi } from '../helpers/fakeOpenAi';
import { CASE_ID, GOOD_TEST_PATH, goodEngineerOutput, goodModel, makeAddWorkspace, repairReply } from '../helpers/scriptedModel';

describe('recording: the verifier, its repair sessions and rewrites are recorded and replayed', function () {
  this.timeout(180_000);
  let fake: FakeOpenAi;
  let root: string;
  let recording: string;

  before(async () => {
    fake = await new FakeOpenAi(goodModel).start();
    const ws = await makeAddWorkspace('amtp-verifier-rec-');
    root = path.dirname(ws);
    fake.script(
      'engineer',
      { content: JSON.stringify({ ...goodEngineerOutput(), tests: [{ case_id: CASE_ID, body: 'assert.equal(add(2, 3), 6);' }] }) },
      repairReply('5'),
    );
    recording = path.join(root, 'run.jsonl');
    const r = await runCli(['generate', ws, '--provider', 'openai', '--yes', '--json', '--record', recording], {
      OPENAI_API_KEY: 'sk-test-rec',
      OPENAI_BASE_URL: fake.baseURL,
      AMTP_BACKOFF_SCALE: '0.001',
    });
    assert.equal(r.code, 0, r.stderr);
    const v = JSON.parse(r.stdout).verification;
    assert.deepEqual(
      v.repairs.map((x: { outcome: string }) => x.outcome),
      ['fixed'],
    );
  });
  after(async () => {
    await fake.stop();
    await fsp.rm(root, { recursive: true, force: true });
  });

  it('the recording (format_version 3) holds the repair session, every test run and every verifier write', async () => {
    const rec = parseRecording(await fsp.readFile(recording, 'utf8'));
    assert.equal(rec.header.format_version, 3);
    assert.deepEqual(rec.header.run.verify, {
      enabled: true,
      runs: 3,
      timeoutSeconds: 120,
      repairAttempts: 2,
      maxCoverageRuns: 60,
      rounds: 2,
      roundTokens: 50_000,
      // Mutation analysis is on by default with a 60 s budget, which a long run may shorten, since no
      // budget was given (fitsRun: docs/mutation.md).
      mutation: { enabled: true, budgetSeconds: 60, fitsRun: true },
    });
    const repairTasks = rec.events.filter(
      (e) => e.type === 'task_sent' && JSON.stringify(rec.payloads.get(e.payload_ref)).includes('in a repair session'),
    );
    assert.equal(repairTasks.length, 1, 'one repair session');
    const runs = rec.events.filter((e) => e.type === 'tool_return' && e.tool === 'tests.run');
    assert.ok(runs.length >= 3 + 3, `the 3 runs of the file and the 3 runs of the repaired test at least (${runs.length})`);
    const writes = rec.events
      .filter((e) => e.tool === 'fs.write')
      .map((e) => rec.payloads.get(e.payload_ref) as { args: { path: string; sha256: string; content: string } });
    assert.ok(writes.length >= 1);
    for (const w of writes) assert.equal(sha256(w.args.content), w.args.sha256);
    assert.ok(
      writes.some((w) => w.args.path === GOOD_TEST_PATH && w.args.content.includes('assert.equal(add(2, 3), 5)')),
      'the repaired file, as content',
    );
  });

  it('a replay re-runs the verifier from the recording alone and writes the repaired file', async () => {
    const out = await replayRecording(recording, path.join(root, 'replay'));
    assert.equal(out.error, undefined);
    assert.equal((out.final as { status: string }).status, 'completed');
    const file = out.files.find((f) => f.path === GOOD_TEST_PATH)!;
    assert.ok(file.content.includes('assert.equal(add(2, 3), 5)') && !file.content.includes('6)'), file.content);
    assert.ok(
      out.trace.some((t) => t.type === 'fs.write'),
      'rewrites are checked against the recording',
    );
  });

  it('verify-determinism passes on it, and fails when the recorded repair reply was changed', async () => {
    const ok = await runCli(['verify-determinism', recording]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /^deterministic: \d+ recorded events replayed/);

    // Change the repair reply (5 → 7) and keep the file well-formed: new payload hash, event pointing at it.
    const text = await fsp.readFile(recording, 'utf8');
    const rec = parseRecording(text);
    const reply = rec.events.find(
      (e) =>
        e.type === 'response_sent' &&
        String((rec.payloads.get(e.payload_ref) as { content?: string }).content).includes('"verdict":"fixed"'),
    )!;
    const data = structuredClone(rec.payloads.get(reply.payload_ref)) as { content: string };
    data.content = data.content.replace('assert.equal(add(2, 3), 5)', 'assert.equal(add(2, 3), 7)');
    const ref = sha256(canonicalJson(data));
    const changed =
      text
        .split('\n')
        .map((l) =>
          l.includes(`"event_id":"${reply.event_id}"`)
            ? l.replace(reply.payload_ref, ref).replace(`"payload_hash":"${reply.payload_hash}"`, `"payload_hash":"${ref.slice(0, 16)}"`)
            : l,
        )
        .join('\n') +
      JSON.stringify({ type: 'payload', hash: ref, data }) +
      '\n';
    const file = path.join(root, 'changed.jsonl');
    await fsp.writeFile(file, changed);
    const bad = await runCli(['verify-determinism', file]);
    assert.equal(bad.code, 1, bad.stdout);
    assert.match(
      bad.stderr,
      /NOT deterministic: both replays diverged from the recording: replay diverged: the verifier writes test\/adder\.amtp\.test\.js [0-9a-f]{16}; the recording has test\/adder\.amtp\.test\.js [0-9a-f]{16} here/,
    );
  });
});
