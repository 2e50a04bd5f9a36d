import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { resolveParams } from '../../server/src/pipeline/config';
import { canonicalJson } from '../../server/src/core/canonical';
import { startRun } from '../../server/src/pipeline/orchestrator';
import type { PipelineEvent } from '../../server/src/pipeline/deps';
import { LowdbStore } from '../../server/src/store/lowdb';
import { FakeOpenAi } from '../helpers/fakeOpenAi';
import { openAiDeps } from '../helpers/pipelineDeps';
import { removeWorkspace } from '../helpers/workspaces';
import {
  ADD_CASE,
  CASE_ID,
  GOOD_TEST_PATH,
  goodEngineerOutput,
  goodGeneratorOutput,
  goodModel,
  isGoodTestFile,
  makeAddWorkspace,
} from '../helpers/scriptedModel';

const params = (over: Parameters<typeof resolveParams>[0] = {}) =>
  resolveParams({ provider: 'openai', model: 'base-model', models: { engineer: 'engineer-model' }, seed: 7, temperature: 0.1, ...over });

async function artifactFiles(ws: string): Promise<string[]> {
  const root = path.join(ws, '.amtp', 'artifacts');
  const runs = await fsp.readdir(root).catch(() => [] as string[]);
  const files = await Promise.all(runs.map(async (r) => (await fsp.readdir(path.join(root, r))).filter((n) => n.endsWith('.json'))));
  return files.flat();
}

describe('pipeline against an OpenAI-compatible server on loopback', () => {
  let fake: FakeOpenAi;
  let ws: string;
  beforeEach(async () => {
    fake = await new FakeOpenAi(goodModel).start();
    ws = await makeAddWorkspace();
  });
  afterEach(async () => {
    await fake.stop();
    await removeWorkspace(ws);
  });

  it('fenced JSON from every agent completes the run; requests carry exactly the contract', async () => {
    const run = await startRun(openAiDeps(ws, fake.baseURL), params());
    assert.equal(run.status, 'completed', run.reason);
    assert.deepEqual(
      fake.requests.map((r) => r.agent),
      ['crawler', 'generator', 'engineer'],
    );
    const store = new LowdbStore(ws);
    for (const req of fake.requests) {
      assert.equal(req.body.messages.length, 2, 'a session is the system prompt plus the envelope, nothing else');
      assert.deepEqual(
        req.body.messages.map((m) => m.role),
        ['system', 'user'],
      );
      const user = req.body.messages[1].content;
      assert.equal(user, canonicalJson(JSON.parse(user)), 'the envelope is RFC 8785 canonical JSON');
      assert.ok(req.body.temperature! <= 0.2);
      assert.equal(req.body.top_p, 1);
      assert.equal(req.body.seed, 7);
      assert.match(req.body.messages[0].content, /"\$id":"https:\/\/amtp\.dev\/schemas\//, 'the system prompt carries the output schema');
      assert.equal(req.headers.authorization, 'Bearer sk-test-fake-key-000');
    }
    assert.deepEqual(
      fake.requests.map((r) => r.body.model),
      ['base-model', 'base-model', 'engineer-model'],
    );
    // Each batch's envelope is a view cut from the previous agent's persisted result.
    const [crawlerReq, generatorReq, engineerReq] = fake.requests;
    assert.equal(crawlerReq.envelope!.from_agent, 'orchestrator');
    assert.deepEqual(crawlerReq.envelope!.batch, { index: 1, count: 1 });
    const staticMap = await store.getArtifact(run.id, run.activities[0].sourceArtifactId!);
    assert.equal(crawlerReq.envelope!.artifact_id, staticMap.id);
    assert.deepEqual(
      (crawlerReq.envelope!.payload as { key_files: unknown }).key_files,
      (staticMap.content as { key_files: unknown }).key_files,
    );
    const crawlerArt = await store.getArtifact(run.id, run.activities[0].artifactId!);
    const generatorArt = await store.getArtifact(run.id, run.activities[1].artifactId!);
    assert.equal(generatorReq.envelope!.artifact_id, crawlerArt.id);
    assert.deepEqual((generatorReq.envelope!.payload as { view: unknown }).view, {
      batch: 1,
      of: 1,
      modules: 1,
      reply: { max_tokens: 4096, cases: 34 },
    });
    assert.deepEqual(generatorReq.envelope!.params, { depth_level: 'standard' });
    assert.equal(engineerReq.envelope!.artifact_id, generatorArt.id);
    const engPayload = engineerReq.envelope!.payload as {
      framework: string;
      cases: { file: string; case: { id: string } }[];
      files: { path: string; imports: string[]; names: string[] }[];
    };
    assert.equal(engPayload.framework, 'node-test', "AMTP resolves auto to the project's framework");
    assert.deepEqual(
      engPayload.cases,
      // the confidence its evidence gives (none named: inferred from the code, pipeline/confidence.ts)
      [{ file: GOOD_TEST_PATH, case: { ...ADD_CASE, id: CASE_ID, confidence: 0.7 } }],
      'AMTP computed the id (and confidence) the model did not write',
    );
    assert.deepEqual(engPayload.files, [
      {
        path: GOOD_TEST_PATH,
        target: 'index.js',
        imports: [
          "const { describe, it } = require('node:test');",
          "const assert = require('node:assert/strict');",
          "const { add } = require('../index.js');",
        ],
        names: ['add'],
      },
    ]);
    assert.deepEqual(engineerReq.envelope!.params, { target_framework: 'auto' });
    // Batch artifacts carry the session's provenance; results say which batches they merge.
    for (const act of run.activities) {
      const batch = await store.getArtifact(run.id, act.batches![0].artifactId!);
      assert.ok(
        'sanitizer' in batch.meta && batch.meta.sanitizer === 'v1.0.0' && batch.meta.seed === 7 && batch.meta.attempt === 1,
        JSON.stringify(batch.meta),
      );
      assert.deepEqual((await store.getArtifact(run.id, act.artifactId!)).meta, { merged_from: [batch.id] });
    }
    assert.equal(isGoodTestFile(await fsp.readFile(path.join(ws, GOOD_TEST_PATH), 'utf8')), true);
    assert.deepEqual(run.files, [{ path: GOOD_TEST_PATH, action: 'created', caseIds: [CASE_ID], sha256: run.files[0].sha256 }]);
    assert.equal(run.audit.length, 1, 'a new test file is medium risk: written and audited');
    assert.equal(run.audit[0].risk, 'medium');
  });

  it('prose before the JSON is MalformedLlmOutput, retried in a new session with no memory of the bad reply', async () => {
    fake.script('generator', { content: 'Sure! Here are the test cases you asked for:\n' + JSON.stringify(goodGeneratorOutput()) });
    const run = await startRun(openAiDeps(ws, fake.baseURL), params());
    assert.equal(run.status, 'completed', run.reason);
    const gen = run.activities.find((a) => a.agent === 'generator')!;
    assert.equal(gen.attempts, 2);
    assert.deepEqual(
      gen.errors.map((e) => e.kind),
      ['MalformedLlmOutput'],
    );
    const [first, second] = fake.callsFor('generator');
    assert.equal(second.body.messages.length, 2);
    assert.deepEqual(second.body.messages, first.body.messages, 'the retry is a fresh session: same two messages, no history');
    const meta = (await new LowdbStore(ws).getArtifact(run.id, gen.batches![0].artifactId!)).meta;
    assert.equal('attempt' in meta && meta.attempt, 2);
  });

  it('a reply cut at the output bound is OutputTruncated, not malformed output: retried once, then the run fails saying how to raise the bound', async () => {
    const cut = JSON.stringify(goodEngineerOutput()).slice(0, 60);
    fake.script(
      'engineer',
      { content: cut, finishReason: 'length' },
      { content: cut, finishReason: 'length' },
      { content: cut, finishReason: 'length' },
    );
    const run = await startRun(openAiDeps(ws, fake.baseURL), params());
    assert.equal(run.status, 'failed');
    const eng = run.activities.find((a) => a.agent === 'engineer')!;
    assert.equal(eng.attempts, 2, 'one retry, not the malformed-output budget of 3');
    assert.deepEqual(
      eng.errors.map((e) => e.kind),
      ['OutputTruncated', 'OutputTruncated'],
    );
    assert.match(eng.errors[0].message, /output bound of 4096 tokens \(finish_reason "length"\)/);
    assert.equal(eng.errors[0].excerpt, cut.slice(-200), 'the tail of the cut reply is kept for a person');
    assert.match(
      run.reason!,
      /cut at the output bound of 4096 tokens 2 times, and its batch cannot be cut further; raise --max-output-tokens/,
    );
    assert.equal(fake.callsFor('engineer').length, 2);
    assert.equal(eng.usage!.requests, 2, 'cut replies are paid for: both are counted');
    assert.equal(eng.artifactId, undefined);
    assert.equal(
      (await artifactFiles(ws)).length,
      5,
      'the static map, then the crawler and generator batches and results; nothing of the engineer',
    );
    await assert.rejects(fsp.access(path.join(ws, GOOD_TEST_PATH)));
  });

  it('a reply cut once, then whole: the run completes with one OutputTruncated on record', async () => {
    fake.script('generator', { content: JSON.stringify(goodGeneratorOutput()).slice(0, 50), finishReason: 'length' });
    const run = await startRun(openAiDeps(ws, fake.baseURL), params());
    assert.equal(run.status, 'completed', run.reason);
    assert.deepEqual(
      run.activities[1].errors.map((e) => e.kind),
      ['OutputTruncated'],
    );
    assert.equal(run.activities[1].attempts, 2);
  });

  it('truncated JSON that ends normally (finish_reason "stop") is still MalformedLlmOutput, retried up to the attempt limit', async () => {
    const cut = JSON.stringify(goodEngineerOutput()).slice(0, 60);
    fake.script('engineer', { content: cut }, { content: cut }, { content: cut });
    const run = await startRun(openAiDeps(ws, fake.baseURL), params());
    assert.equal(run.status, 'failed');
    const eng = run.activities.find((a) => a.agent === 'engineer')!;
    assert.deepEqual(
      eng.errors.map((e) => e.kind),
      ['MalformedLlmOutput', 'MalformedLlmOutput', 'MalformedLlmOutput'],
    );
  });

  it('a schema-violating object stops the run in needs_review with the ajv errors, persists nothing, and is not retried', async () => {
    const bad = goodGeneratorOutput() as { cases: Record<string, unknown>[] };
    bad.cases[0].priority = 'urgent';
    bad.cases[0].id = 42;
    fake.script('generator', { content: JSON.stringify(bad) });
    const run = await startRun(openAiDeps(ws, fake.baseURL), params());
    assert.equal(run.status, 'needs_review');
    const gen = run.activities.find((a) => a.agent === 'generator')!;
    assert.equal(gen.status, 'needs_review');
    assert.equal(fake.callsFor('generator').length, 1);
    assert.equal(fake.callsFor('engineer').length, 0);
    const details = gen.errors[0].details!;
    assert.ok(
      details.some((d) => d.path === '/cases/0/priority'),
      JSON.stringify(details),
    );
    assert.ok(details.some((d) => d.path === '/cases/0/id'));
    assert.match(run.reason!, /violates case-plan/);
    assert.equal((await artifactFiles(ws)).length, 3, 'only the static map and the crawler batch and result');
    // The persisted run shows the same thing to a person.
    const onDisk = await new LowdbStore(ws).getRun(run.id);
    assert.deepEqual(onDisk!.activities[1].errors[0].details, details);
  });

  it('429 with Retry-After waits as told; 429 without it backs off by the base × attempt', async () => {
    fake.script('crawler', { status: 429, headers: { 'retry-after': '1' } }, { status: 429 });
    const events: PipelineEvent[] = [];
    const t0 = Date.now();
    const run = await startRun(openAiDeps(ws, fake.baseURL, { events }), params());
    assert.equal(run.status, 'completed', run.reason);
    assert.ok(Date.now() - t0 >= 1000, 'Retry-After: 1 was honoured');
    const waits = events.filter((e) => e.type === 'log').map((e) => (e as { message: string }).message);
    assert.match(waits[0], /retrying in 1000 ms/);
    assert.match(waits[1], /retrying in 20 ms/, 'second rate-limit retry: 10 ms base × attempt 2');
    assert.deepEqual(
      run.activities[0].errors.map((e) => e.kind),
      ['RateLimited', 'RateLimited'],
    );
  });

  it('500, then a reset connection, then ok: transient errors are retried with their own backoff', async () => {
    fake.script('generator', { status: 500 }, { destroy: true });
    const events: PipelineEvent[] = [];
    const run = await startRun(openAiDeps(ws, fake.baseURL, { events }), params());
    assert.equal(run.status, 'completed', run.reason);
    assert.deepEqual(
      run.activities[1].errors.map((e) => e.kind),
      ['TransientLlmError', 'TransientLlmError'],
    );
    assert.equal(fake.callsFor('generator').length, 3);
    const waits = events.filter((e) => e.type === 'log').map((e) => (e as { message: string }).message);
    assert.match(waits[0], /retrying in 5 ms/);
    assert.match(waits[1], /retrying in 10 ms/);
  });

  it('endless 5xx gives up after the retry budget', async () => {
    fake.script('crawler', ...Array.from({ length: 10 }, () => ({ status: 503 })));
    const run = await startRun(openAiDeps(ws, fake.baseURL), params());
    assert.equal(run.status, 'failed');
    assert.equal(fake.callsFor('crawler').length, 4, '1 call + 3 retries');
    assert.match(run.reason!, /gave up after 4 retries/);
  });

  it('401 fails at once with a message that names the setting to fix', async () => {
    fake.script('crawler', { status: 401, body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } } });
    const run = await startRun(openAiDeps(ws, fake.baseURL), params());
    assert.equal(run.status, 'failed');
    assert.equal(fake.requests.length, 1);
    assert.match(run.reason!, /OPENAI_API_KEY/);
    assert.match(run.reason!, /Set API Key/);
  });

  it('temperature above 0.2 is clamped with a warning and 0.2 is what the server sees', async () => {
    const warnings: string[] = [];
    const p = resolveParams({ provider: 'openai', model: 'm', temperature: 0.9 }, (w) => warnings.push(w));
    assert.equal(p.temperature, 0.2);
    assert.match(warnings[0], /0\.9 is above 0\.2/);
    await startRun(openAiDeps(ws, fake.baseURL), p);
    assert.ok(fake.requests.every((r) => r.body.temperature === 0.2));
  });

  it('credential-shaped strings in workspace files are redacted before they reach the model', async () => {
    const planted = 'sk-proj-PLANTEDsecretKEY0123456789abcdef';
    const src = path.join(ws, 'index.js');
    await fsp.writeFile(
      src,
      (await fsp.readFile(src, 'utf8')).replace(' * Adds two numbers.', ` * Adds two numbers. The demo server key is ${planted}.`),
    );
    const run = await startRun(openAiDeps(ws, fake.baseURL), params());
    assert.equal(run.status, 'completed', run.reason);
    for (const req of fake.requests) assert.ok(!JSON.stringify(req.body).includes(planted), `${req.agent} request`);
    assert.ok(fake.requests[0].body.messages[1].content.includes('[REDACTED]'), 'the doc comment still arrives, redacted');
  });
});
