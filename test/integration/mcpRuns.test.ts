// tests_generate and tests_run through a real SDK client linked in memory: the real pipeline (offline
// provider) and the project's runner, with high-risk actions confirmed by elicitation, declined,
// or refused when the client cannot elicit.
import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { NO_ELICITATION } from '../../server/src/mcp/elicitApprover';
import { makeAddWorkspace } from '../helpers/scriptedModel';
import { connectMcp as connect, type McpResult as Result } from '../helpers/mcpClient';

const approve = (): ElicitResult => ({ action: 'accept', content: { approve: true } });

describe('MCP tools that generate and run tests', function () {
  this.timeout(120_000);
  let ws: string;
  beforeEach(async () => {
    ws = await makeAddWorkspace('amtp-mcp-');
  });
  afterEach(() => fsp.rm(path.dirname(ws), { recursive: true, force: true }));

  it('tests_generate runs the pipeline; running the tests is confirmed through elicitation', async () => {
    const c = await connect(ws, approve);
    try {
      const r = await c.call('tests_generate', { depth: 'smoke', framework: 'node-test' });
      assert.equal(r.isError, undefined, r.content[0].text);
      const s = r.structuredContent;
      assert.equal(s.status, 'completed');
      assert.deepEqual(s.files, [{ path: 'test/adder.amtp.test.js', action: 'created' }]);
      assert.equal(s.verification.status, 'done');
      assert.ok(
        s.verification.results.length > 0 && s.verification.results.every((x: { outcome: string }) => x.outcome === 'passing'),
        JSON.stringify(s.verification.results),
      );
      // Exactly one confirmation: the test run (a new file in a test folder is medium risk).
      assert.equal(c.asked.length, 1);
      assert.match(c.asked[0].message, /^\[high risk\] tests\.run: Run \d+ written test\(s\) in 1 file\(s\) with node-test/);
      assert.deepEqual(
        s.approvals.map((a: { tool: string; decision: string }) => [a.tool, a.decision]),
        [['tests.run', 'approved']],
      );
      const run = JSON.parse(await fsp.readFile(path.join(ws, '.amtp/runs', `${s.runId}.json`), 'utf8'));
      assert.equal(run.approvals[0].decidedBy, 'test-host (elicitation)');

      const t = await c.call('tests_run', {});
      assert.equal(t.isError, undefined, t.content[0].text);
      assert.equal(t.structuredContent.runId, s.runId);
      assert.deepEqual(t.structuredContent.files, ['test/adder.amtp.test.js']);
      assert.ok(t.structuredContent.passed > 0 && t.structuredContent.failed === 0, t.content[0].text);
      assert.equal(c.asked.length, 2);
      assert.match(c.asked[1].message, /tests\.run: Run 1 test file\(s\) once with node-test/);
      const after = JSON.parse(await fsp.readFile(path.join(ws, '.amtp/runs', `${s.runId}.json`), 'utf8'));
      assert.equal(
        after.audit.filter((a: { tool: string; outcome: string }) => a.tool === 'tests.run' && a.outcome === 'executed').length,
        2,
        'both runs audited in the run record',
      );
    } finally {
      await c.close();
    }
  });

  it("intoExisting: the cases go into the person's test/adder.test.js, an overwrite confirmed through elicitation; declined, it stays as it was", async () => {
    const mine = "const test = require('node:test');\nconst assert = require('node:assert');\n\ntest('mine', () => assert.ok(true));\n";
    await fsp.mkdir(path.join(ws, 'test'), { recursive: true });
    await fsp.writeFile(path.join(ws, 'test/adder.test.js'), mine);
    const declining = await connect(ws, () => ({ action: 'decline' }));
    try {
      const r = await declining.call('tests_generate', { depth: 'smoke', framework: 'node-test', intoExisting: true });
      assert.deepEqual(r.structuredContent.files, [{ path: 'test/adder.test.js', action: 'rejected' }]);
      assert.match(declining.asked[0].message, /^\[high risk\] fs\.overwrite: Add tests to your test\/adder\.test\.js/);
      assert.equal(await fsp.readFile(path.join(ws, 'test/adder.test.js'), 'utf8'), mine);
    } finally {
      await declining.close();
    }
    const c = await connect(ws, approve);
    try {
      const r = await c.call('tests_generate', { depth: 'smoke', framework: 'node-test', intoExisting: true });
      assert.deepEqual(r.structuredContent.files, [{ path: 'test/adder.test.js', action: 'merged' }]);
      const merged = await fsp.readFile(path.join(ws, 'test/adder.test.js'), 'utf8');
      assert.ok(merged.includes("\ntest('mine', () => assert.ok(true));\n\ndescribe("), merged);
    } finally {
      await c.close();
    }
  });

  it('a declined confirmation runs nothing', async () => {
    const c = await connect(ws, () => ({ action: 'decline' }));
    try {
      const r = await c.call('tests_generate', {});
      const s = r.structuredContent;
      assert.equal(s.status, 'completed');
      assert.equal(s.verification.status, 'rejected');
      assert.equal(s.verification.executions, 0);
      // One question, to run workspace code (characterization, then the tests): its rejection also
      // answers the verifier's test run, so both requests are on record as rejected.
      assert.equal(c.asked.length, 1);
      assert.match(c.asked[0].message, /^\[high risk\] tests\.run: Run workspace code: 1 module\(s\) in a sandbox/);
      assert.deepEqual(
        s.approvals.map((a: { tool: string; decision: string }) => [a.tool, a.decision]),
        [
          ['tests.run', 'rejected'],
          ['tests.run', 'rejected'],
        ],
      );
      assert.equal(s.characterization.status, 'rejected');
      const t = await c.call('tests_run', {});
      assert.equal(t.isError, true);
      assert.match(t.content[0].text, /^not run: rejected — the person chose "decline"/);
    } finally {
      await c.close();
    }
  });

  it('a client without elicitation gets high-risk actions refused with a message that says how to allow them', async () => {
    const c = await connect(ws);
    try {
      const r = await c.call('tests_generate', {});
      const s = r.structuredContent;
      assert.equal(s.status, 'completed');
      assert.deepEqual(
        s.files,
        [{ path: 'test/adder.amtp.test.js', action: 'created' }],
        'a new test file is medium risk: written without asking',
      );
      assert.equal(s.verification.status, 'rejected');
      // Both refused actions are named: characterization (run workspace code, the workspace) and the test run.
      const notDone = `Not done (tests.run ${ws}; tests.run test/adder.amtp.test.js): this MCP client cannot ask you to confirm`;
      assert.ok(r.content[0].text.includes(notDone), r.content[0].text);
      const t = await c.call('tests_run', { files: ['test/adder.amtp.test.js'] });
      assert.equal(t.isError, true);
      assert.equal(t.content[0].text, `not run: rejected — ${NO_ELICITATION}`);
    } finally {
      await c.close();
    }
  });

  it('tests_run refuses paths outside the workspace, unknown runs and a second call while one is running', async () => {
    const c = await connect(ws, approve);
    try {
      assert.match((await c.call('tests_run', {})).content[0].text, /no run has written tests yet: call tests_generate first/);
      assert.match((await c.call('tests_run', { runId: 'r_nope' })).content[0].text, /no run r_nope/);
      await c.call('tests_generate', { verify: false });
      const escape = await c.call('tests_run', { files: ['../outside.test.js'] });
      assert.equal(escape.isError, true);
      assert.match(escape.content[0].text, /'\.\.' is refused/);
      // The second call goes out when the first reports progress, so the first is surely running.
      const progress: string[] = [];
      let second: Promise<Result> | undefined;
      const first = (await c.client.callTool({ name: 'tests_generate', arguments: { verify: false } }, undefined, {
        onprogress: (p) => {
          progress.push(p.message ?? '');
          second ??= c.call('tests_run', {});
        },
      })) as Result;
      assert.equal(first.structuredContent?.status, 'completed', first.content[0].text);
      assert.deepEqual(progress.slice(0, 3), ['crawler (attempt 1)', 'generator (attempt 1)', 'engineer (attempt 1)']);
      assert.ok(second, 'progress was reported');
      assert.equal((await second).isError, true);
      assert.match((await second).content[0].text, /AMTP is busy with tests_generate/);
    } finally {
      await c.close();
    }
  });
});
