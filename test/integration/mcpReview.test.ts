// tests_review through a real SDK client linked in memory: the calling model lists a run's tests,
// but its decisions are taken only once the person confirms them (elicitation); a client that
// cannot ask gets them refused and nothing is decided or removed.
import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { CASE_ID, GOOD_TEST_PATH, makeAddWorkspace } from '../helpers/scriptedModel';
import { connectMcp as connect } from '../helpers/mcpClient';

describe('MCP tool tests_review', function () {
  this.timeout(120_000);
  let ws: string;
  beforeEach(async () => {
    ws = await makeAddWorkspace('amtp-mcp-review-');
  });
  afterEach(() => fsp.rm(path.dirname(ws), { recursive: true, force: true }));

  it('lists the tests; a decision is refused without confirmation and taken once the person confirms it', async () => {
    const approve = await connect(ws, () => ({ action: 'accept', content: { approve: true } }));
    const cannot = await connect(ws);
    try {
      const gen = await approve.call('tests_generate', { depth: 'standard', framework: 'node-test' });
      assert.equal(gen.structuredContent.status, 'completed', gen.content[0].text);
      const runId = gen.structuredContent.runId as string;
      const listed = await cannot.call('tests_review', { runId });
      assert.equal(listed.isError, undefined, listed.content[0].text);
      assert.ok(
        listed.structuredContent.tests.some((t: { caseId: string; outcome: string }) => t.caseId === CASE_ID && t.outcome === 'passing'),
      );

      const decisions = [{ caseId: CASE_ID, verdict: 'rejected', reason: 'we test add elsewhere' }];
      const refused = await cannot.call('tests_review', { runId, decisions });
      assert.equal(refused.isError, true);
      assert.match(refused.content[0].text, /not confirmed .*nothing was decided/);
      assert.ok((await fsp.readFile(path.join(ws, GOOD_TEST_PATH), 'utf8')).includes(CASE_ID));

      const asked = approve.asked.length;
      const taken = await approve.call('tests_review', { runId, decisions });
      assert.equal(taken.isError, undefined, taken.content[0].text);
      assert.equal(approve.asked.length, asked + 1);
      assert.match(approve.asked.at(-1)!.message, /^\[high risk\] fs\.overwrite: Record your decisions about 1 test\(s\) \(rejected 1\)/);
      assert.deepEqual(taken.structuredContent.removed, [{ file: GOOD_TEST_PATH, caseIds: [CASE_ID] }]);
      assert.ok(!(await fsp.readFile(path.join(ws, GOOD_TEST_PATH), 'utf8')).includes(CASE_ID));

      const again = await approve.call('tests_generate', { depth: 'standard', framework: 'node-test' });
      assert.deepEqual(again.structuredContent.decisions.heldBack, [
        { caseId: CASE_ID, verdict: 'rejected', reason: 'we test add elsewhere' },
      ]);
      assert.ok(!(await fsp.readFile(path.join(ws, GOOD_TEST_PATH), 'utf8').catch(() => '')).includes(CASE_ID), 'not written back');
    } finally {
      await approve.close();
      await cannot.close();
    }
  });
});
