// Issue 27's "Done when", through the CLI and through MCP (offline): a person rejects 2 tests with a
// reason and answers a quarantined one "docs are wrong". The next run does not bring the rejected
// tests back, reports the documentation issue (and does not ask about it again), and obeys the
// lessons: the rejected cases are held back, never planned or written. (The same lessons reaching a
// model's envelope: test/integration/review.test.ts.)
import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { mcpRuns } from '../../server/src/cli/mcpRuns';
import { createWorkspaceServer } from '../../server/src/mcp/server';
import { runCli } from '../helpers/cli';
import { FIXTURES, copyWorkspace, removeWorkspace } from '../helpers/workspaces';

interface Summary {
  runId: string;
  status: string;
  cases: { id: string; title: string }[];
  decisions?: { heldBack: { caseId: string; verdict: string; reason?: string }[]; answered: { caseId: string; verdict: string }[] };
  verification: { results: { caseId: string; outcome: string; file?: string }[] };
}

/** padkit: zeroPad contradicts its README (quarantined); documented upper(), lower() and shout() examples pass. */
async function workspace(): Promise<string> {
  const ws = await copyWorkspace(path.join(FIXTURES, 'verifier-buggy'));
  const readme = await fsp.readFile(path.join(ws, 'README.md'), 'utf8');
  await fsp.writeFile(
    path.join(ws, 'README.md'),
    readme.replace("upper('abc'); // => 'ABC'", "upper('abc'); // => 'ABC'\nlower('ABC'); // => 'abc'\nshout('hi'); // => 'hi!'"),
  );
  const code = await fsp.readFile(path.join(ws, 'index.js'), 'utf8');
  await fsp.writeFile(
    path.join(ws, 'index.js'),
    code.replace(
      'module.exports = { zeroPad, upper };',
      '/** Lower-cases a string. */\nfunction lower(s) {\n  return String(s).toLowerCase();\n}\n\n/** Adds an exclamation mark. */\nfunction shout(s) {\n  return `${s}!`;\n}\n\nmodule.exports = { zeroPad, upper, lower, shout };',
    ),
  );
  return ws;
}

/** What the next run must show after the decisions. */
async function checkNextRun(ws: string, next: Summary, rejected: string[], quarantined: string): Promise<void> {
  assert.deepEqual(
    next.decisions!.heldBack.map((h) => [h.caseId, h.verdict, h.reason]).sort(),
    rejected.map((id) => [id, 'rejected', 'covered by our own tests']).sort(),
  );
  assert.deepEqual(
    next.decisions!.answered.map((x) => [x.caseId, x.verdict]),
    [[quarantined, 'docs_wrong']],
  );
  for (const id of rejected) assert.ok(!next.cases.some((c) => c.id === id), `${id} is not planned again`);
  for (const f of new Set(next.verification.results.map((r) => r.file).filter((f): f is string => !!f))) {
    const text = await fsp.readFile(path.join(ws, f), 'utf8').catch(() => '');
    for (const id of rejected) assert.ok(!text.includes(id), `${id} is not written back into ${f}`);
  }
}

describe('review that lasts, through the CLI and MCP (issue 27 "Done when")', function () {
  this.timeout(600_000);

  it('CLI: two rejections with a reason and a "docs are wrong" answer hold in the next run, which reports the documentation issue', async () => {
    const ws = await workspace();
    try {
      const gen = async () =>
        JSON.parse((await runCli(['generate', ws, '--provider', 'offline', '--no-characterize', '--yes', '--json'])).stdout) as Summary;
      const first = await gen();
      const quarantined = first.verification.results.find((r) => r.outcome === 'quarantined')!.caseId;
      const passing = first.verification.results.filter((r) => r.outcome === 'passing').map((r) => r.caseId);
      assert.ok(passing.length >= 2, JSON.stringify(first.verification.results));
      const rejected = passing.slice(0, 2);
      const r1 = await runCli([
        'review',
        first.runId,
        ws,
        ...rejected.flatMap((id) => ['--drop', id]),
        '--reason',
        'covered by our own tests',
      ]);
      assert.equal(r1.code, 0, r1.stderr);
      const r2 = await runCli([
        'review',
        first.runId,
        ws,
        '--docs-wrong',
        quarantined,
        '--reason',
        'the README is wrong: it pads on the right',
      ]);
      assert.equal(r2.code, 0, r2.stderr);
      const lessons = JSON.parse((await runCli(['lessons', 'list', ws, '--json'])).stdout).lessons as { id: string; source: string }[];
      assert.deepEqual(
        lessons.map((l) => `${l.id} ${l.source}`).sort(),
        [...rejected.map((id) => `${id} rejected`), `${quarantined} docs_wrong`].sort(),
      );

      const next = await gen();
      await checkNextRun(ws, next, rejected, quarantined);
      const text = (await runCli(['generate', ws, '--provider', 'offline', '--no-characterize', '--yes'])).stdout;
      assert.match(text, new RegExp(`answered quarantine ${quarantined}: the docs are wrong`));
    } finally {
      await removeWorkspace(ws);
    }
  });

  it('MCP: the same decisions through tests_review (confirmed by the person) hold in the next tests_generate', async () => {
    const ws = await workspace();
    const server = createWorkspaceServer(ws, { runs: mcpRuns({ workspace: ws, llm: { provider: 'offline' }, risk: {} }) });
    const client = new Client({ name: 'test-host', version: '1' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { approve: true } }));
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(b);
    await client.connect(a);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a tool result's structured content is read field by field
    const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as any;
    try {
      const first = (await call('tests_generate', { depth: 'standard', framework: 'node-test' })).structuredContent as Summary;
      const quarantined = first.verification.results.find((r) => r.outcome === 'quarantined')!.caseId;
      const rejected = first.verification.results
        .filter((r) => r.outcome === 'passing')
        .map((r) => r.caseId)
        .slice(0, 2);
      const taken = await call('tests_review', {
        runId: first.runId,
        decisions: [
          ...rejected.map((caseId) => ({ caseId, verdict: 'rejected', reason: 'covered by our own tests' })),
          { caseId: quarantined, verdict: 'docs_wrong', reason: 'the README is wrong' },
        ],
      });
      assert.equal(taken.isError, undefined, taken.content?.[0]?.text);
      const next = (await call('tests_generate', { depth: 'standard', framework: 'node-test' })).structuredContent as Summary;
      await checkNextRun(ws, next, rejected, quarantined);
    } finally {
      await client.close();
      await server.close();
      await removeWorkspace(ws);
    }
  });
});
