// A repair that gave up is a lesson (pipeline/lessons.ts repairLessons), through the CLI against the
// loopback fake: the engineer asserts 6 for add(2, 3), both repair sessions stay wrong (7, then 8),
// the test is dropped, and `amtp lessons` lists a repair_failed lesson tied to index.js#add that the
// next run's generator envelope carries. It cannot be forgotten: it ages out with its run.
import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../helpers/cli';
import { FakeOpenAi } from '../helpers/fakeOpenAi';
import { CASE_ID, goodEngineerOutput, goodModel, makeAddWorkspace, repairReply } from '../helpers/scriptedModel';

describe('a repair that gave up is a lesson', function () {
  this.timeout(180_000);
  let fake: FakeOpenAi;
  let ws: string;
  let scratch: string;
  before(async () => {
    fake = await new FakeOpenAi(goodModel).start();
    ws = await makeAddWorkspace('amtp-repair-lesson-');
    scratch = await fsp.mkdtemp(path.join(os.tmpdir(), 'amtp-repair-lesson-cache-'));
  });
  after(async () => {
    await fake.stop();
    await fsp.rm(path.dirname(ws), { recursive: true, force: true });
    await fsp.rm(scratch, { recursive: true, force: true });
  });
  const env = () => ({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseURL, AMTP_BACKOFF_SCALE: '0.001', AMTP_CACHE_DIR: scratch });
  const generate = async () => {
    const r = await runCli(['generate', ws, '--provider', 'openai', '--yes', '--json'], env());
    return JSON.parse(r.stdout) as { verification: { repairs: { caseId: string; outcome: string }[] } };
  };

  it('lists a repair_failed lesson about the case, the next generator envelope carries it, and forget refuses it', async () => {
    const wrong = {
      content: JSON.stringify({ ...goodEngineerOutput(), tests: [{ case_id: CASE_ID, body: 'assert.equal(add(2, 3), 6);' }] }),
    };
    fake.script('engineer', wrong, repairReply('7'), repairReply('8'));
    const first = await generate();
    assert.deepEqual(
      first.verification.repairs.map((r) => [r.caseId, r.outcome]),
      [
        [CASE_ID, 'still_failing'],
        [CASE_ID, 'still_failing'],
      ],
    );

    const listed = await runCli(['lessons', 'list', ws, '--json']);
    assert.equal(listed.code, 0, listed.stderr);
    const lessons = JSON.parse(listed.stdout).lessons as { id: string; source: string; file?: string; symbol?: string; text: string }[];
    assert.deepEqual(
      lessons.map((l) => [l.id, l.source, l.file, l.symbol]),
      [[CASE_ID, 'repair_failed', 'index.js', 'add']],
    );
    assert.match(lessons[0].text, /^A repair of the test "add\(2, 3\) returns 5" gave up \(still failing\)/);

    const before = fake.requests.length;
    await generate();
    const carried = fake.requests
      .slice(before)
      .filter((q) => q.agent === 'generator')
      .flatMap((q) => (q.envelope?.lessons as { id: string; source: string }[] | undefined) ?? []);
    assert.deepEqual(
      carried.map((l) => [l.id, l.source]),
      [[CASE_ID, 'repair_failed']],
    );

    const forget = await runCli(['lessons', 'forget', CASE_ID, ws]);
    assert.equal(forget.code, 2);
    assert.match(forget.stderr, /a failed repair's lesson ages out with its run/);
  });
});
