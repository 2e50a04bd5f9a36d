// Issue 21, rows 4 and 10b: run records are data, not control. Records a repository ships (broken,
// not a run record, or another person's) are skipped and counted by every command and tool, never
// fatal; and an approval typed into one's own run record by hand is not honoured.
import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI, runCli } from '../helpers/cli';
import { GOOD_TEST_PATH, makeAddWorkspace } from '../helpers/scriptedModel';
import { rmTemp, tally } from './helpers/common';

type ToolResult = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: Record<string, unknown> };

const FOREIGN = {
  schema_version: 1,
  id: 'r_20260101T000000_ffffff',
  version: 1,
  status: 'completed',
  stage: 'done',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  params: { provider: 'offline', models: {}, seed: 1, temperature: 0, maxAttempts: 3, depth: 'smoke', framework: 'auto' },
  activities: [],
  files: [{ path: GOOD_TEST_PATH, action: 'created', sha256: '0'.repeat(64) }],
  approvals: [],
  audit: [],
};

/** What a repository can ship under .amtp/runs next to an AMTP test file. */
async function plant(ws: string): Promise<void> {
  const runs = path.join(ws, '.amtp/runs');
  await fsp.mkdir(runs, { recursive: true });
  await fsp.writeFile(path.join(runs, 'broken.json'), '{"id": "r_x", "status": ');
  await fsp.writeFile(path.join(runs, 'x.json'), '{"x":1}');
  await fsp.writeFile(path.join(runs, 'null.json'), 'null');
  await fsp.writeFile(path.join(runs, `${FOREIGN.id}.json`), JSON.stringify(FOREIGN));
  await fsp.mkdir(path.join(ws, 'test'), { recursive: true });
  await fsp.writeFile(path.join(ws, GOOD_TEST_PATH), "it('c_0123456789ab: planted', () => {});\n");
}

const corruptCopies = async (ws: string) => (await fsp.readdir(path.join(ws, '.amtp/runs'))).filter((n) => n.includes('.corrupt')).sort();

describe('hostile 3: run records a repository ships are data, not control (issue 21)', function () {
  this.timeout(180_000);
  const dirs: string[] = [];
  after(() => Promise.all(dirs.map((d) => rmTemp(d))));
  const workspace = async () => {
    const ws = await makeAddWorkspace('amtp-planted-runs-');
    dirs.push(path.dirname(ws));
    return ws;
  };

  it('generate, runs and runs --json skip and count them; one quarantined copy per broken file, however many calls', async () => {
    const ws = await workspace();
    await plant(ws);
    const gen = await runCli(['generate', ws, '--yes', '--no-verify', '--json'], {});
    assert.equal(gen.code, 0, gen.stderr);
    assert.doesNotMatch(gen.stderr, /TypeError|StoreCorrupt/);
    assert.equal(JSON.parse(gen.stdout).status, 'completed');
    assert.match(gen.stderr, /ignoring 4 run record\(s\) in \.amtp\/runs/);
    for (let i = 0; i < 3; i++) {
      const text = await runCli(['runs', ws]);
      assert.equal(text.code, 0, text.stderr);
      assert.doesNotMatch(text.stderr, /TypeError|StoreCorrupt/);
      assert.match(
        text.stderr,
        /ignoring 4 run record\(s\) in \.amtp\/runs: 1 not created by you here \(r_20260101T000000_ffffff\), 3 unreadable/,
      );
      assert.match(text.stderr, /broken\.json: not valid JSON/);
      assert.match(text.stderr, /x\.json: not a run record/);
    }
    const json = await runCli(['runs', ws, '--json']);
    assert.equal(json.code, 0, json.stderr);
    const listed = JSON.parse(json.stdout);
    assert.equal(listed.runs.length, 1, 'the one run this person made');
    assert.deepEqual(listed.ignored.foreign, [FOREIGN.id]);
    assert.deepEqual(listed.ignored.unreadable.map((u: { file: string }) => u.file).sort(), ['broken.json', 'null.json', 'x.json']);
    assert.deepEqual(await corruptCopies(ws), ['broken.json.corrupt'], 'one copy of the file that does not parse, not one per call');
    tally('3 repository-shipped .amtp/ runs', { tried: 5 });
  });

  it('MCP tests_generate and tests_run answer (no TypeError, no StoreCorrupt) and say what they ignored', async () => {
    const ws = await workspace();
    await plant(ws);
    const client = new Client({ name: 'hostile', version: '1' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', ws], stderr: 'pipe' }));
    try {
      const call = async (name: string, args: Record<string, unknown>) =>
        (await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })) as ToolResult;
      const gen = await call('tests_generate', { depth: 'smoke', verify: false });
      const text = gen.content.map((c) => c.text).join('\n');
      assert.doesNotMatch(text, /TypeError|StoreCorrupt/);
      assert.equal(gen.isError, undefined, text);
      assert.match(text, /ignoring 4 run record\(s\)/);
      const run = await call('tests_run', {});
      const runText = run.content.map((c) => c.text).join('\n');
      assert.doesNotMatch(runText, /TypeError|StoreCorrupt/);
      // The planted test file is not this person's, so writing over it needed a confirmation the client
      // cannot give: no run of theirs has written tests, and tests_run says so (and what it ignored).
      assert.match(runText, /^no run has written tests yet/);
      assert.match(runText, /ignoring 4 run record\(s\)/);
    } finally {
      await client.close();
    }
    assert.deepEqual(await corruptCopies(ws), ['broken.json.corrupt']);
    tally('3 repository-shipped .amtp/ runs', { tried: 2 });
  });

  it('symlinks planted in .amtp/ are never written through: .gitignore, a quarantine copy, the runs folder', async () => {
    const ws = await workspace();
    const outside = path.join(path.dirname(ws), 'outside');
    await fsp.mkdir(outside);
    await fsp.writeFile(path.join(outside, 'bashrc'), 'export PATH=/usr/bin\n');
    await fsp.writeFile(path.join(outside, 'profile'), 'umask 022\n');
    await fsp.mkdir(path.join(ws, '.amtp/runs'), { recursive: true });
    await fsp.symlink(path.join(outside, 'bashrc'), path.join(ws, '.amtp/.gitignore'));
    await fsp.writeFile(path.join(ws, '.amtp/runs/broken.json'), '{');
    await fsp.symlink(path.join(outside, 'profile'), path.join(ws, '.amtp/runs/broken.json.corrupt'));
    const gen = await runCli(['generate', ws, '--yes', '--no-verify', '--json'], {});
    assert.equal(gen.code, 0, gen.stderr);
    assert.equal(await fsp.readFile(path.join(outside, 'bashrc'), 'utf8'), 'export PATH=/usr/bin\n');
    assert.equal(await fsp.readFile(path.join(outside, 'profile'), 'utf8'), 'umask 022\n');
    assert.equal((await fsp.lstat(path.join(ws, '.amtp/runs/broken.json.corrupt'))).isFile(), true, 'the copy replaced the link');
    // A runs folder that is a symlink: the run is refused with the reason, and nothing lands where it points.
    const other = await workspace();
    await fsp.mkdir(path.join(other, '.amtp'));
    await fsp.symlink(outside, path.join(other, '.amtp/runs'));
    const refused = await runCli(['generate', other, '--yes', '--no-verify', '--json'], {});
    assert.equal(refused.code, 4);
    assert.match(refused.stderr, /\.amtp\/runs is a symlink, not a folder .*remove it/);
    assert.deepEqual((await fsp.readdir(outside)).sort(), ['bashrc', 'profile']);
    tally('3 repository-shipped .amtp/ runs', { tried: 3 });
  });

  it('an approval typed into one’s own run record by hand is not honoured: resume asks again', async () => {
    const ws = await workspace();
    const first = await runCli(['generate', ws, '--json'], {}); // no TTY, no --yes: tests.run waits
    const s = JSON.parse(first.stdout);
    assert.equal(s.status, 'awaiting_approval', first.stderr);
    const file = path.join(ws, '.amtp/runs', `${s.runId}.json`);
    const run = JSON.parse(await fsp.readFile(file, 'utf8'));
    assert.deepEqual(
      run.approvals.map((a: { tool: string; decision: string }) => [a.tool, a.decision]),
      [['tests.run', 'pending']],
    );
    // The owner mark covers the run id and the workspace; the edit keeps both.
    for (const a of run.approvals)
      Object.assign(a, { decision: 'approved', decidedBy: 'cli approve', decidedAt: new Date().toISOString() });
    await fsp.writeFile(file, JSON.stringify(run));
    const resumed = await runCli(['resume', s.runId, ws, '--json'], {});
    const after = JSON.parse(resumed.stdout);
    assert.equal(after.status, 'awaiting_approval', 'the edited approval is asked again, not honoured');
    assert.equal(after.verification?.status === 'done', false, 'no test ran');
    assert.match(resumed.stderr, /not signed by you/);
    // A decision taken the supported way is honoured.
    const approved = await runCli(['approve', s.runId, ws, '--json'], {});
    assert.equal(approved.code, 0, approved.stderr);
    assert.equal(JSON.parse(approved.stdout).status, 'completed');
    tally('3 repository-shipped .amtp/ runs', { tried: 2 });
  });
});
