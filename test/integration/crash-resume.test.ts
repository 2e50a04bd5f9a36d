import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { LowdbStore } from '../../server/src/store/lowdb';
import { runCli } from '../helpers/cli';
import { FakeOpenAi } from '../helpers/fakeOpenAi';
import { CASE_ID, GOOD_TEST_PATH, goodModel, isGoodTestFile, makeAddWorkspace, makeBigAddWorkspace } from '../helpers/scriptedModel';
import { removeWorkspace } from '../helpers/workspaces';

// Every boundary where a process can die: after an artifact is on disk but before the run
// record says so (persisted), after the run record is committed, and between file writes.
const BOUNDARIES = [
  'crawler:batch:persisted',
  'crawler:batch:committed',
  'crawler:persisted',
  'crawler:committed',
  'generator:batch:persisted',
  'generator:batch:committed',
  'generator:persisted',
  'generator:committed',
  'engineer:batch:persisted',
  'engineer:batch:committed',
  'engineer:persisted',
  'engineer:committed',
  'write:file',
  // the verifier ran the tests N times; resume verifies again from the written files
  'verify:ran',
];
const AGENTS = ['crawler', 'generator', 'engineer'] as const;

describe('SIGKILL at every agent boundary, then amtp resume', function () {
  this.timeout(120_000);
  let fake: FakeOpenAi;
  before(async () => {
    fake = await new FakeOpenAi(goodModel).start();
  });
  after(() => fake.stop());

  const env = () => ({ OPENAI_API_KEY: 'sk-test-crash-key', OPENAI_BASE_URL: fake.baseURL, AMTP_MODEL: 'm' });

  async function cleanRunContents(): Promise<Record<string, unknown>> {
    const ws = await makeAddWorkspace();
    const res = await runCli(['generate', ws, '--provider', 'openai', '--yes', '--json', '--no-mutation'], env());
    assert.equal(res.code, 0, res.stderr);
    const summary = JSON.parse(res.stdout);
    const store = new LowdbStore(ws);
    const out: Record<string, unknown> = {};
    for (const a of summary.activities) out[a.agent] = (await store.getArtifact(summary.runId, a.artifactId)).content;
    await removeWorkspace(ws);
    return out;
  }

  let reference: Record<string, unknown>;
  before(async () => {
    reference = await cleanRunContents();
  });

  for (const boundary of BOUNDARIES) {
    it(`killed at ${boundary}: resume completes with the same artifacts and no repeated calls for finished agents`, async () => {
      const ws = await makeAddWorkspace();
      try {
        fake.requests.length = 0;
        const crashed = await runCli(['generate', ws, '--provider', 'openai', '--yes', '--json', '--no-mutation'], {
          ...env(),
          AMTP_CRASH_AT: boundary,
        });
        assert.equal(crashed.signal, 'SIGKILL', `the child should have died at ${boundary}: ${crashed.stderr}`);
        const store = new LowdbStore(ws);
        const [run] = await store.listRuns();
        assert.ok(run, 'the run record survived the kill');
        const callsBefore = Object.fromEntries(AGENTS.map((a) => [a, fake.callsFor(a).length]));
        // The crashed agent's artifact is on disk in both boundary kinds, so no agent that reached it is called again.
        const crashedIndex =
          boundary.startsWith('write') || boundary.startsWith('verify')
            ? 3
            : AGENTS.indexOf(boundary.split(':')[0] as (typeof AGENTS)[number]);
        const committedBefore = run.activities.filter((a) => a.status === 'completed').map((a) => ({ agent: a.agent, id: a.artifactId }));

        const resumed = await runCli(['resume', run.id, ws, '--yes', '--json'], env());
        assert.equal(resumed.code, 0, resumed.stderr);
        const summary = JSON.parse(resumed.stdout);
        assert.equal(summary.status, 'completed');
        for (const [i, agent] of AGENTS.entries()) {
          const newCalls = fake.callsFor(agent).length - callsBefore[agent];
          assert.equal(newCalls, i <= crashedIndex ? 0 : 1, `${agent} calls after resume`);
        }
        for (const c of committedBefore) {
          assert.equal(summary.activities.find((a: { agent: string }) => a.agent === c.agent).artifactId, c.id, `${c.agent} artifact kept`);
        }
        for (const a of summary.activities) {
          assert.deepEqual((await store.getArtifact(run.id, a.artifactId)).content, reference[a.agent], `${a.agent} artifact content`);
        }
        assert.equal(isGoodTestFile(await fsp.readFile(path.join(ws, GOOD_TEST_PATH), 'utf8')), true);
        // Nothing half-written: no temp files left next to the store or the test file.
        const leftovers = (await fsp.readdir(path.join(ws, '.amtp', 'runs'))).filter((n) => n.endsWith('.tmp'));
        assert.deepEqual(leftovers, []);
        // verification ran to the end after the resume: the documented test passes every run; the
        // characterization test of add() (documented modules are characterized too) covers nothing
        // the documented one does not, so it is dropped. Mutation is off here: with it, the rule
        // depends on whether the time-budgeted mutation phase finished on a loaded machine.
        assert.equal(summary.verification.status, 'done');
        assert.deepEqual(
          summary.verification.results.map((r: { caseId: string; outcome: string; rule?: string }) => [
            r.caseId === CASE_ID ? 'documented' : 'pinned',
            r.outcome,
            r.rule,
          ]),
          [
            ['documented', 'passing', undefined],
            ['pinned', 'dropped', 'unique_coverage'],
          ],
        );
      } finally {
        await removeWorkspace(ws);
      }
    });
  }

  // Several batches per agent (small budgets), killed after the 2nd batch of each agent: resume
  // sends only the batches that had not finished, and the result is the uninterrupted run's.
  const BUDGET = ['--max-input-tokens', '2700', '--max-output-tokens', '1200', '--concurrency', '1'];
  for (const agent of ['crawler', 'generator', 'engineer'] as const) {
    for (const kind of ['batch:persisted', 'batch:committed'] as const) {
      it(`several batches, killed at ${agent}:${kind} of batch 2: resume calls no finished batch again`, async () => {
        const ref = await makeBigAddWorkspace(30);
        const ws = await makeBigAddWorkspace(30);
        try {
          const clean = await runCli(['generate', ref, '--provider', 'openai', '--yes', '--json', ...BUDGET], env());
          assert.equal(clean.code, 0, clean.stderr);
          const refRun = (await new LowdbStore(ref).getRun(JSON.parse(clean.stdout).runId))!;
          const batchesOf = (a: string) => refRun.activities.find((x) => x.agent === a)!.batches!.length;
          assert.ok(batchesOf(agent) >= 2, `${agent} works in ${batchesOf(agent)} batches`);

          fake.requests.length = 0;
          const crashed = await runCli(['generate', ws, '--provider', 'openai', '--yes', '--json', ...BUDGET], {
            ...env(),
            AMTP_CRASH_AT: `${agent}:${kind}#2`,
          });
          assert.equal(crashed.signal, 'SIGKILL', crashed.stderr);
          const sentBefore = fake.callsFor(agent).length;
          assert.equal(sentBefore, 2, 'batch 1 finished; batch 2 was answered when the process died');
          const [run] = await new LowdbStore(ws).listRuns();
          const resumed = await runCli(['resume', run.id, ws, '--yes', '--json'], env());
          assert.equal(resumed.code, 0, resumed.stderr);
          assert.equal(
            fake.callsFor(agent).length - sentBefore,
            batchesOf(agent) - 2,
            `after resume only the ${batchesOf(agent) - 2} unfinished ${agent} batch(es) are sent`,
          );
          const done = (await new LowdbStore(ws).getRun(run.id))!;
          for (const a of done.activities) {
            assert.deepEqual(
              (await new LowdbStore(ws).getArtifact(run.id, a.artifactId!)).content,
              (await new LowdbStore(ref).getArtifact(refRun.id, refRun.activities.find((x) => x.agent === a.agent)!.artifactId!)).content,
              `${a.agent} result equals the uninterrupted run's`,
            );
          }
        } finally {
          await fsp.rm(path.dirname(ref), { recursive: true, force: true });
          await fsp.rm(path.dirname(ws), { recursive: true, force: true });
        }
      });
    }
  }
});
