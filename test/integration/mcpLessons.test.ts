// tests_lessons through a real SDK client linked in memory (offline): the calling model lists the
// lessons a rejection left; forgetting one is high risk (lessons.forget), so it happens only once the
// person confirms it, a repository's .vscode/settings.json cannot lower that, and the next
// tests_generate writes the forgotten test again.
import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { CASE_ID, GOOD_TEST_PATH, makeAddWorkspace } from '../helpers/scriptedModel';
import { connectMcp as connect, type McpResult as Result } from '../helpers/mcpClient';

const ids = (r: Result) => (r.structuredContent.lessons as { id: string; source: string }[]).map((l) => `${l.id} ${l.source}`);

describe('MCP tool tests_lessons', function () {
  this.timeout(180_000);
  let ws: string;
  beforeEach(async () => {
    ws = await makeAddWorkspace('amtp-mcp-lessons-');
  });
  afterEach(() => fsp.rm(path.dirname(ws), { recursive: true, force: true }));

  it('lists a rejection as a lesson; forgetting it waits for the person, whatever the repository says, and the test comes back', async () => {
    const approve = await connect(ws, () => ({ action: 'accept', content: { approve: true } }));
    const cannot = await connect(ws);
    const testFile = () => fsp.readFile(path.join(ws, GOOD_TEST_PATH), 'utf8').catch(() => '');
    try {
      const gen = await approve.call('tests_generate', { depth: 'standard', framework: 'node-test' });
      const runId = gen.structuredContent.runId as string;
      const review = await approve.call('tests_review', {
        runId,
        decisions: [{ caseId: CASE_ID, verdict: 'rejected', reason: 'we test add elsewhere' }],
      });
      assert.equal(review.isError, undefined, review.content[0].text);
      // A run that holds it back (forgotten before any run, its removal by review would read as a deletion by hand).
      const held = await approve.call('tests_generate', { depth: 'standard', framework: 'node-test' });
      assert.deepEqual(held.structuredContent.decisions.heldBack, [
        { caseId: CASE_ID, verdict: 'rejected', reason: 'we test add elsewhere' },
      ]);

      const listed = await cannot.call('tests_lessons');
      assert.equal(listed.isError, undefined, listed.content[0].text);
      assert.deepEqual(ids(listed), [`${CASE_ID} rejected`]);
      const [lesson] = listed.structuredContent.lessons;
      assert.equal(lesson.file, 'index.js');
      assert.equal(lesson.symbol, 'add');
      assert.match(lesson.text, /rejected the test "add\(2, 3\) returns 5"; the person's reason: we test add elsewhere/);
      assert.match(listed.content[0].text, new RegExp(`^${CASE_ID} rejected index\\.js#add `));

      // The repository asks to make forgetting low risk: ignored, so a client that cannot ask is refused.
      await fsp.mkdir(path.join(ws, '.vscode'));
      await fsp.writeFile(path.join(ws, '.vscode/settings.json'), JSON.stringify({ 'amtp.riskOverrides': { 'lessons.forget': 'low' } }));
      const refused = await cannot.call('tests_lessons', { forget: CASE_ID });
      assert.equal(refused.isError, true);
      assert.match(refused.content[0].text, /^not forgotten \(rejected: this MCP client cannot ask you to confirm/);
      assert.deepEqual(ids(await cannot.call('tests_lessons')), [`${CASE_ID} rejected`], 'the lesson stands');

      // A lesson that is not there is refused before anyone is asked.
      const unknown = await approve.call('tests_lessons', { forget: 'tc_000000000000' });
      assert.equal(unknown.isError, true);
      assert.match(unknown.content[0].text, /no lesson from a decision about "tc_000000000000"/);
      const asked = approve.asked.length;

      const forgot = await approve.call('tests_lessons', { forget: CASE_ID });
      assert.equal(forgot.isError, undefined, forgot.content[0].text);
      assert.equal(approve.asked.length, asked + 1);
      assert.match(
        approve.asked.at(-1)!.message,
        new RegExp(`^\\[high risk\\] lessons\\.forget: Forget the lesson about ${CASE_ID} \\(rejected in index\\.js#add\\)`),
      );
      assert.equal(forgot.structuredContent.forgotten, CASE_ID);
      assert.equal(forgot.structuredContent.approval.decision, 'approved');
      assert.deepEqual(ids(await cannot.call('tests_lessons')), []);

      assert.ok(!(await testFile()).includes(CASE_ID), 'not written while rejected');
      const again = await approve.call('tests_generate', { depth: 'standard', framework: 'node-test' });
      assert.deepEqual(again.structuredContent.decisions.heldBack, []);
      assert.ok((await testFile()).includes(CASE_ID), 'written back once forgotten');
    } finally {
      await approve.close();
      await cannot.close();
    }
  });

  it("the person's own --risk lessons.forget=medium forgets without asking", async () => {
    const approve = await connect(ws, () => ({ action: 'accept', content: { approve: true } }));
    const trusted = await connect(ws, undefined, { 'lessons.forget': 'medium' });
    try {
      const runId = (await approve.call('tests_generate', { depth: 'standard', framework: 'node-test' })).structuredContent.runId;
      await approve.call('tests_review', { runId, decisions: [{ caseId: CASE_ID, verdict: 'wrong_test' }] });
      assert.deepEqual(ids(await trusted.call('tests_lessons')), [`${CASE_ID} wrong_test`]);
      const forgot = await trusted.call('tests_lessons', { forget: CASE_ID });
      assert.equal(forgot.isError, undefined, forgot.content[0].text);
      assert.equal(forgot.structuredContent.approval, undefined, 'nobody was asked');
      assert.deepEqual(ids(await trusted.call('tests_lessons')), []);
    } finally {
      await approve.close();
      await trusted.close();
    }
  });
});
