// Token usage in recordings: recorded on each reply event, replayed into the same sums, and absent
// (counted as unreported) in recordings made before it was recorded.
import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseRecording } from '../../server/src/record/recording';
import { replayRecording } from '../../server/src/record/replay';
import { LowdbStore } from '../../server/src/store/lowdb';
import type { RunSummary } from '../../server/src/pipeline/summary';
import { runCli } from '../helpers/cli';
import { FakeOpenAi } from '../helpers/fakeOpenAi';
import { goodModel, makeAddWorkspace } from '../helpers/scriptedModel';

describe('usage in recordings', function () {
  this.timeout(120_000);
  let dir: string;
  before(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'amtp-usage-rec-'));
  });
  after(() => fsp.rm(dir, { recursive: true, force: true }));

  it('a replay reproduces the recorded usage, a cut reply included, and the replay stays deterministic', async () => {
    const fake = await new FakeOpenAi(goodModel).start();
    const ws = await makeAddWorkspace();
    try {
      fake.usage = { prompt: 1234, completion: 567, cached: 34 };
      fake.script('generator', { content: '{"cut', finishReason: 'length', usage: { prompt: 1234, completion: 4096 } });
      const recording = path.join(dir, 'run.jsonl');
      // --no-characterize: characterization's tests.run approval would make the run wait without a TTY.
      const r = await runCli(
        ['generate', ws, '--provider', 'openai', '--no-verify', '--no-characterize', '--json', '--record', recording],
        {
          OPENAI_BASE_URL: fake.baseURL,
          AMTP_CACHE_DIR: dir,
        },
      );
      assert.equal(r.code, 0, r.stderr);
      const original = JSON.parse(r.stdout) as RunSummary;
      assert.deepEqual(original.usage.byAgent.generator, { promptTokens: 2468, completionTokens: 4663, cachedTokens: 34, requests: 2 });
      const rec = parseRecording(await fsp.readFile(recording, 'utf8'));
      const cut = rec.events.find((e) => e.type === 'response_sent' && e.outcome === 'error')!;
      assert.deepEqual(cut.usage, { prompt_tokens: 1234, completion_tokens: 4096, cached_tokens: 0 });
      assert.deepEqual((rec.payloads.get(cut.payload_ref) as { error: unknown }).error, {
        kind: 'OutputTruncated',
        message: original.activities[1].errors[0].message,
        maxOutputTokens: 4096,
      });

      const out = await replayRecording(recording, path.join(dir, 'replay'));
      assert.equal(out.error, undefined);
      const replayed = (await new LowdbStore(path.join(dir, 'replay', path.basename(ws))).getRun(original.runId))!;
      assert.deepEqual(replayed.usage!.byAgent, original.usage.byAgent);
      assert.deepEqual(replayed.usage!.total, original.usage.total);
      assert.deepEqual(
        replayed.activities[1].errors.map((e) => e.kind),
        ['OutputTruncated'],
      );
      const v = await runCli(['verify-determinism', recording]);
      assert.equal(v.code, 0, v.stderr);
    } finally {
      await fake.stop();
      await fsp.rm(path.dirname(ws), { recursive: true, force: true });
    }
  });
});
