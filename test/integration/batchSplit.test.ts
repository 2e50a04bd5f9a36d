// A reply cut at the output bound (finish_reason "length") cuts its batch in two halves, each sent
// in a new session; the halves are part of the run record, so a resumed run sends the same halves.
import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { caseIdOf } from '../../server/src/agents/generator/batches';
import type { CrawlerOutput, PlannedCase, TestCases } from '../../server/src/contracts/types';
import { startRun } from '../../server/src/pipeline/orchestrator';
import { resolveParams } from '../../server/src/pipeline/config';
import { LowdbStore } from '../../server/src/store/lowdb';
import { runCli } from '../helpers/cli';
import { FakeOpenAi, type ReceivedRequest } from '../helpers/fakeOpenAi';
import { openAiDeps } from '../helpers/pipelineDeps';
import { GOOD_TEST_PATH, goodModel, isGoodTestFile, makeBigAddWorkspace } from '../helpers/scriptedModel';

const SYMBOLS = ['add', 'plus1', 'plus2', 'plus3', 'plus4', 'plus5', 'plus6'];
const cut = { content: '```json\n{"schema_version":"1","cases":[{"title":"add(2, 3) ret', finishReason: 'length' as const };

const shown = (r: ReceivedRequest) =>
  (r.envelope!.payload as unknown as CrawlerOutput).key_files.flatMap((f) => f.symbols.map((s) => s.name));

describe('a reply cut at the output bound splits its batch', function () {
  this.timeout(120_000);
  let fake: FakeOpenAi;
  let ws: string;
  beforeEach(async () => {
    fake = await new FakeOpenAi(goodModel).start();
    ws = await makeBigAddWorkspace(6);
  });
  afterEach(async () => {
    await fake.stop();
    await fsp.rm(path.dirname(ws), { recursive: true, force: true });
  });

  it('the two halves cover the batch exactly, each in a new session; the run completes with every symbol planned', async () => {
    fake.script('generator', cut);
    // 3600 tokens hold the 7 symbols' expected plans (450 each at depth standard): one batch, until it is cut.
    const params = resolveParams({ provider: 'openai', model: 'm', maxOutputTokens: 3600 });
    const run = await startRun(openAiDeps(ws, fake.baseURL), params);
    assert.equal(run.status, 'completed', run.reason);

    const [first, ...halves] = fake.callsFor('generator');
    assert.equal(halves.length, 2, 'one cut reply, then its two halves');
    assert.deepEqual(first.envelope!.batch, { index: 1, count: 1 });
    assert.deepEqual(
      halves.map((h) => h.envelope!.batch),
      [
        { index: 1, count: 1, part: '1' },
        { index: 1, count: 1, part: '2' },
      ],
    );
    assert.deepEqual(shown(first), SYMBOLS);
    assert.deepEqual([...shown(halves[0]), ...shown(halves[1])], SYMBOLS, 'the halves show every symbol once, in order');
    assert.ok(shown(halves[0]).length >= 1 && shown(halves[1]).length >= 1);
    // The module's source sample goes with its first part only.
    assert.equal(((halves[1].envelope!.payload as unknown as CrawlerOutput).samples ?? []).length, 0);
    for (const r of fake.requests)
      assert.equal(r.body.max_tokens ?? r.body.max_completion_tokens, 3600, "every request carries the run's output bound");

    const gen = run.activities.find((a) => a.agent === 'generator')!;
    assert.deepEqual(
      gen.batches!.map((b) => [b.index, b.status, b.part ?? null, b.parent ?? null]),
      [
        [1, 'split', null, null],
        [2, 'completed', '1', 1],
        [3, 'completed', '2', 1],
      ],
    );
    assert.deepEqual(gen.batches![0].parts, [2, 3]);
    assert.deepEqual(
      gen.errors.map((e) => e.kind),
      ['OutputTruncated'],
    );
    assert.equal(gen.usage!.requests, 3, 'the cut reply is paid for too');

    const store = new LowdbStore(ws);
    const plan = (await store.getArtifact(run.id, gen.artifactId!)).content as TestCases;
    assert.deepEqual(
      plan.cases.map((c) => c.target.symbol),
      SYMBOLS,
      'merged in batch order: the first half, then the second',
    );
    assert.deepEqual(
      plan.cases.map((c) => c.id),
      plan.cases.map((c) => caseIdOf(c as PlannedCase)),
    );
    assert.ok(isGoodTestFile(await fsp.readFile(path.join(ws, GOOD_TEST_PATH), 'utf8')));
  });

  it("a whole reply the endpoint counts past max_tokens is taken as cut, as a model keeping to its bound would have stopped; the envelope states the reply's room", async () => {
    // The relay runs (F12): the answerer wrote 5.6k tokens against 4,096, and AMTP accepted it.
    let first = true;
    fake.setFallback((req) => {
      const reply = goodModel(req);
      if (req.agent !== 'generator' || !first || !('content' in reply)) return reply;
      first = false;
      return { ...reply, finishReason: 'stop', usage: { prompt: 500, completion: 3601 } };
    });
    const run = await startRun(openAiDeps(ws, fake.baseURL), resolveParams({ provider: 'openai', model: 'm', maxOutputTokens: 3600 }));
    assert.equal(run.status, 'completed', run.reason);
    const [whole, ...halves] = fake.callsFor('generator');
    assert.deepEqual((whole.envelope!.payload as unknown as CrawlerOutput).view?.reply, { max_tokens: 3600, cases: 30 });
    assert.match(whole.body.messages[0].content, /"view\.reply"\s+is this reply's room/);
    assert.equal(halves.length, 2, 'the over-long reply was not accepted: its batch was split in two');
    const gen = run.activities.find((a) => a.agent === 'generator')!;
    assert.match(gen.errors[0].message, /3601 tokens by the endpoint's count, past its output bound of 3600 tokens/);
    const engineer = fake.callsFor('engineer')[0];
    assert.equal((engineer.envelope!.payload as { view: { max_tokens?: number } }).view.max_tokens, 3600);
  });

  it('a half that is cut again is halved again ("1.1"); a batch of one symbol that is cut twice fails the run naming the bound', async () => {
    // The model cannot fit any reply that plans add: every batch showing it is cut.
    fake.setFallback((req) => (req.agent === 'generator' && shown(req).includes('add') ? cut : goodModel(req)));
    const run = await startRun(openAiDeps(ws, fake.baseURL), resolveParams({ provider: 'openai', model: 'm' }));
    assert.equal(run.status, 'failed');
    const withAdd = fake.callsFor('generator').filter((r) => shown(r).includes('add'));
    // 7 symbols: cut → part 1 (4 symbols) → 1.1 (2) → 1.1.1 (add alone), which cannot be cut: sent once more, then the run fails.
    assert.deepEqual(
      withAdd.map((r) => (r.envelope!.batch as { part?: string }).part ?? ''),
      ['', '1', '1.1', '1.1.1', '1.1.1'],
    );
    assert.deepEqual(shown(withAdd[3]), ['add']);
    assert.match(
      run.reason!,
      /generator batch 1\/1 \(part 1\.1\.1\): the reply was cut at the output bound of 4096 tokens 2 times, and its batch cannot be cut further; raise --max-output-tokens/,
    );
  });

  it('killed right after the split: resume sends the same two halves and nothing else again', async () => {
    const env = { OPENAI_API_KEY: 'sk-test-split-key', OPENAI_BASE_URL: fake.baseURL, AMTP_MODEL: 'm' };
    fake.script('generator', cut);
    const crashed = await runCli(['generate', ws, '--provider', 'openai', '--yes', '--no-verify', '--json'], {
      ...env,
      AMTP_CRASH_AT: 'generator:batch:split',
    });
    assert.equal(crashed.signal, 'SIGKILL', crashed.stderr);
    assert.equal(fake.callsFor('generator').length, 1);
    const [run] = await new LowdbStore(ws).listRuns();
    assert.deepEqual(
      run.activities[1].batches!.map((b) => b.status),
      ['split', 'pending', 'pending'],
    );

    const resumed = await runCli(['resume', run.id, ws, '--yes', '--json'], env);
    assert.equal(resumed.code, 0, resumed.stderr);
    const calls = fake.callsFor('generator');
    assert.equal(calls.length, 3, 'the cut batch is not sent again: only its halves');
    assert.deepEqual(
      calls.slice(1).map((r) => r.envelope!.batch),
      [
        { index: 1, count: 1, part: '1' },
        { index: 1, count: 1, part: '2' },
      ],
    );
    assert.deepEqual([...shown(calls[1]), ...shown(calls[2])], SYMBOLS);
    assert.equal(fake.callsFor('crawler').length, 1, 'the crawler finished before the kill');
  });
});
