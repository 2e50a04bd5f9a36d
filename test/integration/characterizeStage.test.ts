// The characterize stage (server/src/characterize/stage.ts) in the real pipeline with the offline
// provider, on test/fixtures/charstage: two modules of undocumented functions whose loading appends
// to a counter file beside them, so a test can count the processes that ran each module.
import { strict as assert } from 'node:assert';
import { existsSync, promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createProvider } from '../../server/src/app/providers';
import { standardStages } from '../../server/src/app/stages';
import { crawlMap } from '../../server/src/agents/crawler/staticMap';
import { DEFAULT_VERIFY, type RunParams, type RunRecord } from '../../server/src/core/run';
import { approveAll, deferAll, runWideApprovalId } from '../../server/src/gateway/approvers';
import type { Approver } from '../../server/src/gateway/gateway';
import { resolveParams } from '../../server/src/pipeline/config';
import type { PipelineDeps } from '../../server/src/pipeline/deps';
import { resumeRun, startRun } from '../../server/src/pipeline/orchestrator';
import { RunStore } from '../../server/src/pipeline/store';
import { summarize } from '../../server/src/pipeline/summary';
import { runCli } from '../helpers/cli';
import { FakeOpenAi } from '../helpers/fakeOpenAi';
import { openAiDeps } from '../helpers/pipelineDeps';
import { goodModel, makeBigAddWorkspace } from '../helpers/scriptedModel';

const FIXTURE = path.resolve(__dirname, '..', 'fixtures', 'charstage');

async function workspace(): Promise<string> {
  const ws = path.join(await fsp.mkdtemp(path.join(os.tmpdir(), 'amtp-charstage-')), 'charstage');
  await fsp.cp(FIXTURE, ws, { recursive: true });
  return ws;
}

function deps(ws: string, approver: Approver, extra: Partial<PipelineDeps> = {}): PipelineDeps {
  return {
    workspace: ws,
    store: new RunStore(ws),
    provider: createProvider({ provider: 'offline' }),
    approver,
    stages: standardStages(),
    crawl: crawlMap,
    ...extra,
  };
}

function params(characterize: boolean, verify = true): RunParams {
  return { ...resolveParams({ provider: 'offline' }), verify: { ...DEFAULT_VERIFY, enabled: verify, runs: 1 }, characterize };
}

/** How many processes loaded each module (each load appends one "x"). */
async function loads(ws: string): Promise<{ index: number; more: number }> {
  const count = async (name: string) => (await fsp.readFile(path.join(ws, name), 'utf8').catch(() => '')).length;
  return { index: await count('.loads-index'), more: await count('.loads-more') };
}

async function writtenTests(ws: string, run: RunRecord): Promise<string> {
  const texts = await Promise.all(run.files.map((f) => fsp.readFile(path.join(ws, f.path), 'utf8')));
  return texts.join('\n');
}

describe('characterize stage', function () {
  this.timeout(120_000);
  const dirs: string[] = [];
  after(async () => {
    for (const d of dirs) await fsp.rm(path.dirname(d), { recursive: true, force: true });
  });
  const fresh = async () => {
    const ws = await workspace();
    dirs.push(ws);
    return ws;
  };

  it('pins what undocumented functions return, replaces their existence checks, and the verifier keeps the pinned tests', async () => {
    const ws = await fresh();
    const run = await startRun(deps(ws, approveAll), params(true));
    assert.equal(run.status, 'completed', run.reason);
    const text = await writtenTests(ws, run);
    // grade's branches: the literals in its source (90, 75, 50) are among the inputs, so each branch is pinned.
    assert.match(
      text,
      /it\('tc_[0-9a-f]{12}: pins current behaviour: charstageLib\.grade\(90\) returns the observed value', \(\) => \{\n\s+const actual = charstageLib\.grade\(90\);\n\s+assert\.strictEqual\(actual, 'A'\);/,
    );
    assert.match(text, /charstageLib\.grade\(75\);\n\s+assert\.strictEqual\(actual, 'B'\);/);
    assert.match(text, /charstageLib\.grade\(50\);\n\s+assert\.strictEqual\(actual, 'C'\);/);
    // one call covers all of half: the first boundary value, whose NaN result is pinned as NaN
    assert.match(
      text,
      /pins current behaviour: more\.half\(undefined\) returns the observed value', \(\) => \{\n\s+const actual = more\.half\(undefined\);\n\s+assert\.ok\(Number\.isNaN\(actual\)\);/,
    );
    assert.ok(!/grade is a function|grade is defined/.test(text), 'the existence check of grade is replaced');

    const s = await summarize(run, new RunStore(ws));
    assert.equal(s.characterization!.status, 'done');
    assert.equal(s.characterization!.targets, 3); // grade, words, half
    assert.equal(s.characterization!.replaced, 3);
    assert.equal(s.characterization!.planned, s.cases.filter((c) => c.characterization).length);
    assert.ok(s.characterization!.planned >= 5);
    assert.equal(s.characterization!.kept, s.characterization!.planned, 'every pinned test passes its run');
    assert.equal(s.existenceOnlyShare, 0);
    assert.ok(s.cases.filter((c) => c.characterization).every((c) => c.priority === 'P2' || c.priority === 'P3'));
    // One approval covered characterization and the test run: the verifier's request was answered by it.
    const wide = runWideApprovalId(run.id, 'tests.run');
    assert.deepEqual(
      run.approvals.map((a) => [a.tool, a.decision, a.id === wide]),
      [
        ['tests.run', 'approved', true],
        ['tests.run', 'approved', false],
      ],
    );
    assert.equal(run.verification!.status, 'done');
  });

  it('with characterization off (--no-characterize) the existence checks stay and nothing is run before the tests', async () => {
    const ws = await fresh();
    const run = await startRun(deps(ws, approveAll), params(false, false));
    assert.equal(run.status, 'completed', run.reason);
    const text = await writtenTests(ws, run);
    assert.ok(!text.includes('pins current behaviour'), text);
    assert.match(
      text,
      /charstageLib\.grade is a function taking 1 declared parameter\(s\)', \(\) => \{\n\s+const actual = charstageLib\.grade;\n\s+assert\.strictEqual\(typeof actual, 'function'\);/,
    );
    assert.deepEqual(await loads(ws), { index: 0, more: 0 });
    assert.equal(run.characterization!.status, 'skipped');
    assert.match(run.characterization!.reason!, /--no-characterize/);
    const s = await summarize(run, new RunStore(ws));
    assert.equal(s.existenceOnlyShare, 1);
  });

  it('the CLI flag --no-characterize reaches the run: nothing is run, and the summary says why', async () => {
    const ws = await fresh();
    const r = await runCli(['generate', ws, '--provider', 'offline', '--no-characterize', '--no-verify', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const s = JSON.parse(r.stdout);
    assert.deepEqual(s.characterization, {
      status: 'skipped',
      reason: 'characterization is off (--no-characterize)',
      targets: 0,
      planned: 0,
      replaced: 0,
      stable: 0,
      unstable: 0,
      unusable: 0,
    });
    assert.equal(s.existenceOnlyShare, 1);
    assert.deepEqual(await loads(ws), { index: 0, more: 0 });
  });

  it('at depth smoke nothing is characterized: the run asked for existence checks only', async () => {
    const ws = await fresh();
    const run = await startRun(deps(ws, approveAll), { ...params(true, false), depth: 'smoke' });
    assert.deepEqual([run.characterization!.status, run.characterization!.reason], ['skipped', 'depth smoke plans existence checks only']);
    assert.deepEqual(await loads(ws), { index: 0, more: 0 });
  });

  it('in Restricted Mode nothing runs, even with every approval given', async () => {
    const ws = await fresh();
    const run = await startRun(deps(ws, approveAll, { canExecute: () => false }), params(true));
    assert.equal(run.characterization!.status, 'skipped');
    assert.match(run.characterization!.reason!, /Restricted Mode/);
    assert.deepEqual(await loads(ws), { index: 0, more: 0 });
    assert.ok(!(await writtenTests(ws, run)).includes('pins current behaviour'));
  });

  it('without a decision the run waits before the engineer and runs nothing; the one decision then covers the test run too', async () => {
    const ws = await fresh();
    const waiting = await startRun(deps(ws, deferAll), params(true));
    assert.equal(waiting.status, 'awaiting_approval');
    assert.equal(waiting.characterization!.status, 'awaiting_approval');
    assert.match(waiting.reason!, /amtp approve/);
    assert.equal(waiting.activities.find((a) => a.agent === 'engineer')!.status, 'pending');
    assert.deepEqual(waiting.files, []);
    assert.deepEqual(await loads(ws), { index: 0, more: 0 });
    const wide = runWideApprovalId(waiting.id, 'tests.run');
    assert.deepEqual(
      waiting.approvals.map((a) => [a.id === wide, a.decision]),
      [[true, 'pending']],
    );

    // `amtp approve` records the decision; the resumed run finds it. Any other question would be a "no".
    const store = new RunStore(ws);
    const rec = (await store.getRun(waiting.id))!;
    rec.approvals[0] = { ...rec.approvals[0], decision: 'approved', decidedBy: 'test' };
    await store.saveRun(rec);
    const onlyRecorded: Approver = { ask: async () => ({ decision: 'rejected', by: 'not asked twice' }) };
    const done = await resumeRun(deps(ws, onlyRecorded), waiting.id);
    assert.equal(done.status, 'completed', done.reason);
    assert.equal(done.characterization!.status, 'done');
    assert.equal(done.verification!.status, 'done');
    assert.ok(
      done.approvals.every((a) => a.decision === 'approved'),
      JSON.stringify(done.approvals),
    );
    assert.ok((await writtenTests(ws, done)).includes('pins current behaviour'));
  });

  it('a run killed after the first module resumes without characterizing that module again', async () => {
    const ws = await fresh();
    const killed = await runCli(['generate', ws, '--provider', 'offline', '--yes', '--no-verify', '--json'], {
      AMTP_CRASH_AT: 'characterize:module#1',
    });
    assert.notEqual(killed.code, 0);
    const [file] = await fsp.readdir(path.join(ws, '.amtp', 'runs'));
    const runId = file.replace(/\.json$/, '');
    const before = (await new RunStore(ws).getRun(runId))!;
    assert.equal(before.characterization!.modules.length, 1);
    const first = before.characterization!.modules[0];
    const afterCrash = await loads(ws);
    // Each module runs in two children (two runs must agree); only the first module ran.
    assert.equal(afterCrash.index + afterCrash.more, 2);

    const resumed = await runCli(['resume', runId, ws, '--yes', '--json']);
    assert.equal(resumed.code, 0, resumed.stderr);
    const run = (await new RunStore(ws).getRun(runId))!;
    assert.equal(run.characterization!.status, 'done');
    assert.deepEqual(run.characterization!.modules[0], first);
    assert.equal(run.characterization!.modules.length, 2);
    assert.deepEqual(await loads(ws), { index: 2, more: 2 }, 'the finished module was not run again');
    assert.ok(existsSync(path.join(ws, run.files[0].path)));
  });
});

describe('characterize stage with an LLM provider', function () {
  this.timeout(120_000);
  let fake: FakeOpenAi;
  before(async () => {
    fake = await new FakeOpenAi(goodModel).start();
  });
  after(() => fake.stop());

  it("the pinned cases reach the engineer's envelope in place of the model's existence checks", async () => {
    // The adder with plus1 and plus2: the scripted generator plans add(2, 3) and only an existence check for each plus.
    const ws = await makeBigAddWorkspace(2);
    try {
      const params = { ...resolveParams({ provider: 'openai', model: 'm' }), characterize: true };
      const run = await startRun(openAiDeps(ws, fake.baseURL), params);
      assert.equal(run.status, 'completed', run.reason);
      assert.equal(run.characterization!.status, 'done');
      const sent = fake.requests
        .filter((r) => r.agent === 'engineer')
        .flatMap(
          (r) => (r.envelope!.payload as { cases: { case: { title: string; oracle?: { call?: string; expected?: string } } }[] }).cases,
        )
        .map((c) => c.case);
      const pinned = sent.filter((c) => c.title.startsWith('pins current behaviour: '));
      assert.deepEqual(
        pinned.map((c) => [c.oracle?.call, c.oracle?.expected]),
        [
          ['adder.plus1(0)', '1'],
          ['adder.plus2(0)', '2'],
        ],
      );
      assert.deepEqual(
        sent.filter((c) => / is a function$/.test(c.title)).map((c) => c.title),
        [],
        'the existence checks of plus1 and plus2 were replaced',
      );
      assert.ok(
        sent.some((c) => c.title === 'add(2, 3) returns 5'),
        'the documented case stays',
      );
    } finally {
      await fsp.rm(path.dirname(ws), { recursive: true, force: true });
    }
  });
});
