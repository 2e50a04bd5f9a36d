// The confidence gate (issue 27 item 4, docs/confidence.md): every kept test carries a confidence;
// below the threshold it waits for a person and a non-interactive run ends awaiting_input (exit 7)
// with the list; --yes does not accept such tests, --accept-low-confidence does, and `amtp review`
// accepts or rejects them one by one until the run completes.
import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../helpers/cli';
import { FIXTURES, SAMPLE_LIB, copyWorkspace, removeWorkspace } from '../helpers/workspaces';

interface Gate {
  threshold: number;
  tests: { caseId: string; confidence: number; basis: string }[];
  awaiting: { caseId: string; confidence: number; basis: string; title: string; file: string }[];
  accepted: { caseId: string; by: string }[];
  unverified?: string;
}
interface Summary {
  runId: string;
  status: string;
  reason?: string;
  confidence?: Gate;
  verification: { results: { caseId: string; outcome: string; file?: string }[] };
}

const generate = async (ws: string, ...flags: string[]) => {
  const r = await runCli(['generate', ws, '--provider', 'offline', '--yes', '--json', ...flags]);
  return { code: r.code, stderr: r.stderr, s: JSON.parse(r.stdout) as Summary };
};

const statusOf = async (ws: string, runId: string) =>
  (JSON.parse((await runCli(['runs', ws, '--json'])).stdout) as { runs: { runId: string; status: string }[] }).runs.find(
    (r) => r.runId === runId,
  )?.status;

describe('the confidence gate', function () {
  this.timeout(600_000);

  describe('on the sample library (documented examples)', () => {
    let ws: string;
    before(async () => {
      ws = await copyWorkspace(SAMPLE_LIB);
    });
    after(() => removeWorkspace(ws));

    it('every kept test carries a confidence in [0, 1]; at the default threshold nothing waits', async () => {
      const { code, s, stderr } = await generate(ws);
      assert.equal(code, 0, stderr);
      assert.equal(s.status, 'completed');
      const kept = s.verification.results.filter((r) => r.outcome === 'passing').map((r) => r.caseId);
      assert.ok(kept.length > 0);
      assert.deepEqual(s.confidence!.tests.map((t) => t.caseId).sort(), [...kept].sort());
      for (const t of s.confidence!.tests) assert.ok(t.confidence >= 0 && t.confidence <= 1 && t.basis.length > 0, JSON.stringify(t));
      assert.equal(s.confidence!.threshold, 0.75);
      assert.deepEqual(s.confidence!.awaiting, []);
    });

    it('above the evidence, tests wait: exit 7, awaiting_input with the list; --yes accepts none; review keeps one and drops the rest', async () => {
      const { code, s } = await generate(ws, '--confidence-threshold', '0.99');
      assert.equal(code, 7);
      assert.equal(s.status, 'awaiting_input');
      assert.match(s.reason!, /wait for review: amtp review r_\S+ --keep/);
      const waiting = s.confidence!.awaiting;
      assert.ok(waiting.length > 0);
      for (const t of waiting) {
        assert.ok(t.confidence < 0.99);
        assert.ok(t.title && t.file && t.basis, JSON.stringify(t));
      }
      const text = await runCli(['review', s.runId, ws]);
      assert.match(text.stdout, /waits for review: confidence 0\.\d+/);

      const [keep, ...drop] = waiting.map((t) => t.caseId);
      const file = path.join(ws, waiting[0].file);
      await runCli(['review', s.runId, ws, '--keep', keep]);
      assert.equal(await statusOf(ws, s.runId), drop.length ? 'awaiting_input' : 'completed');
      if (drop.length) {
        const r = await runCli(['review', s.runId, ws, ...drop.flatMap((id) => ['--drop', id]), '--reason', 'not sure of it']);
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stdout, /the run is completed/);
      }
      assert.equal(await statusOf(ws, s.runId), 'completed');
      const onDisk = await fsp.readFile(file, 'utf8');
      assert.ok(onDisk.includes(keep), 'the kept test stays');
      for (const id of drop) assert.ok(!onDisk.includes(id), `${id} is removed from its file`);
    });

    it('with the tests not verified (--no-verify) none waits: each is listed with its planned value, and the gate says why', async () => {
      const { code, s } = await generate(ws, '--confidence-threshold', '0.99', '--no-verify', '--full');
      assert.equal(code, 0);
      assert.equal(s.status, 'completed');
      assert.deepEqual(s.confidence!.awaiting, []);
      assert.ok(s.confidence!.tests.some((t) => t.confidence < 0.99 && /not verified/.test(t.basis)));
      assert.match(s.confidence!.unverified!, /the tests were not verified .*nothing below 0\.99 was held for review/);
    });

    it('--accept-low-confidence lets them through (recorded), and an earlier keep holds in the next run', async () => {
      const { code, s } = await generate(ws, '--confidence-threshold', '0.99', '--accept-low-confidence');
      assert.equal(code, 0);
      assert.equal(s.status, 'completed');
      assert.deepEqual(s.confidence!.awaiting, []);
      assert.ok(s.confidence!.accepted.some((a) => a.by === 'flag'));
      assert.ok(
        s.confidence!.accepted.some((a) => a.by === 'decision'),
        'the test kept by review earlier is accepted by that decision',
      );
    });
  });

  it('on the sequence fixture: pinned values that were verified and kill mutants clear the default threshold', async () => {
    const ws = await copyWorkspace(path.join(FIXTURES, 'seqlib'));
    try {
      const { code, s, stderr } = await generate(ws);
      assert.equal(code, 0, `${s.status}: ${s.reason}\n${stderr}`);
      const pinned = s.confidence!.tests.filter((t) => /pinned/.test(t.basis));
      assert.ok(pinned.length > 0);
      assert.deepEqual(s.confidence!.awaiting, []);
    } finally {
      await removeWorkspace(ws);
    }
  });
});
