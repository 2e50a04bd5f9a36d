// Row 1 of issue 21: a repository's git config and hooks are workspace code, and AMTP runs git before
// anything is approved (--changed-since, the MCP tool's changedSince) and for --commit. Each attack
// plants commands git would run (core.fsmonitor, a clean filter, diff drivers, hooks) that leave a
// mark with the API key they saw; none may ever start (server/src/git/git.ts).
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { mcpRuns } from '../../server/src/cli/mcpRuns';
import { createWorkspaceServer } from '../../server/src/mcp/server';
import { runCli } from '../helpers/cli';
import { makeAddWorkspace } from '../helpers/scriptedModel';
import { rmTemp, tally } from './helpers/common';
import { commitAll, IDENTITY, markScript, marks, sh } from './helpers/workspaceCode';

const KEY = `sk-hostile-${randomBytes(16).toString('hex')}`;
const CATEGORY = '7 git runs no repository code';

/** The adder as a repository whose config names a command for every way git can be made to run one on diff and ls-files. */
async function hostileRepo(): Promise<{ ws: string; marker: string }> {
  const ws = await makeAddWorkspace('amtp-hostile-git-');
  await fsp.writeFile(path.join(ws, '.gitattributes'), '*.js filter=evil diff=evil\n');
  commitAll(ws);
  const { script, marker } = await markScript(path.dirname(ws), 'config-command');
  for (const [k, v] of [
    ['core.fsmonitor', script],
    ['filter.evil.clean', `${script} clean`],
    ['filter.evil.process', `${script} process`],
    ['filter.evil.required', 'true'],
    ['diff.evil.command', `${script} diff-command`],
    ['diff.evil.textconv', `${script} textconv`],
    ['diff.external', `${script} external`],
    ['core.pager', `${script} pager`],
  ])
    sh(ws, 'config', k, v);
  // A change since HEAD, so diff has a working-tree file to look at (and filter).
  await fsp.appendFile(path.join(ws, 'index.js'), '\nmodule.exports.twice = (a) => add(a, a);\n');
  return { ws, marker };
}

describe('hostile 7: git runs no repository code', function () {
  this.timeout(180_000);
  let ws: string | undefined;
  afterEach(async () => {
    if (ws) await rmTemp(path.dirname(ws));
    ws = undefined;
  });

  it('generate --changed-since HEAD: fsmonitor, filters and diff drivers never start before approval', async () => {
    const repo = await hostileRepo();
    ws = repo.ws;
    const r = await runCli(['generate', ws, '--provider', 'offline', '--changed-since', 'HEAD', '--json'], { OPENAI_API_KEY: KEY });
    const fired = await marks(repo.marker);
    tally(CATEGORY, { tried: 1, failures: fired.length ? 1 : 0, unapproved: fired.length });
    assert.deepEqual(fired, [], 'git ran a command of the repository');
    // The scope still worked: the changed file was found, and the run waits for its test run.
    assert.equal(r.code, 4, r.stderr);
    const s = JSON.parse(r.stdout);
    assert.equal(s.status, 'awaiting_approval');
    assert.ok(s.cases.length > 0, 'the changed module was planned');
  });

  it('MCP tests_generate {changedSince}: the same config runs nothing, with no confirmation asked', async () => {
    const repo = await hostileRepo();
    ws = repo.ws;
    const saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = KEY;
    const server = createWorkspaceServer(ws, { runs: mcpRuns({ workspace: ws, llm: { provider: 'offline' }, risk: {} }) });
    const client = new Client({ name: 'hostile-host', version: '1' }, { capabilities: {} });
    try {
      const [a, b] = InMemoryTransport.createLinkedPair();
      await server.connect(b);
      await client.connect(a);
      const r = (await client.callTool({ name: 'tests_generate', arguments: { changedSince: 'HEAD', framework: 'node-test' } })) as {
        isError?: boolean;
        content: { text: string }[];
      };
      const fired = await marks(repo.marker);
      tally(CATEGORY, { tried: 1, failures: fired.length ? 1 : 0, unapproved: fired.length });
      assert.deepEqual(fired, [], 'git ran a command of the repository');
      assert.equal(r.isError, undefined, r.content[0]?.text);
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
      await client.close();
      await server.close();
    }
  });

  it('--commit: no hook in .git/hooks runs (reference-transaction fires on update-ref), and the approval says so', async () => {
    ws = await makeAddWorkspace('amtp-hostile-hook-');
    commitAll(ws);
    const { script, marker } = await markScript(path.dirname(ws), 'hook');
    const hooks = path.join(ws, '.git', 'hooks');
    for (const hook of ['reference-transaction', 'post-index-change', 'pre-commit', 'post-commit', 'pre-auto-gc']) {
      await fsp.copyFile(script, path.join(hooks, hook));
      await fsp.chmod(path.join(hooks, hook), 0o755);
    }
    const r = await runCli(['generate', ws, '--provider', 'offline', '--yes', '--commit', '--json'], { OPENAI_API_KEY: KEY, ...IDENTITY });
    const fired = await marks(marker);
    tally(CATEGORY, { tried: 1, failures: fired.length ? 1 : 0, unapproved: fired.length });
    assert.deepEqual(fired, [], 'a hook ran');
    assert.equal(r.code, 0, r.stderr);
    const s = JSON.parse(r.stdout);
    assert.equal(s.branch.status, 'created');
    assert.equal(sh(ws, 'rev-parse', `refs/heads/${s.branch.name}`), s.branch.commit);
    const run = JSON.parse(await fsp.readFile(path.join(ws, '.amtp', 'runs', `${s.runId}.json`), 'utf8'));
    const asked = run.approvals.find((a: { tool: string }) => a.tool === 'git.branch');
    assert.match(asked.summary, /No git hook runs, nor any command the repository's git config names/);
  });

  it('--commit with core.hooksPath in the config: that folder is not used either', async () => {
    ws = await makeAddWorkspace('amtp-hostile-hookspath-');
    commitAll(ws);
    const { script, marker } = await markScript(path.dirname(ws), 'hook');
    await fsp.mkdir(path.join(ws, 'hooks'));
    await fsp.copyFile(script, path.join(ws, 'hooks', 'reference-transaction'));
    await fsp.chmod(path.join(ws, 'hooks', 'reference-transaction'), 0o755);
    sh(ws, 'config', 'core.hooksPath', 'hooks');
    const r = await runCli(['generate', ws, '--provider', 'offline', '--yes', '--commit', '--json'], { OPENAI_API_KEY: KEY, ...IDENTITY });
    const fired = await marks(marker);
    tally(CATEGORY, { tried: 1, failures: fired.length ? 1 : 0, unapproved: fired.length });
    assert.deepEqual(fired, [], 'a hook ran');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).branch.status, 'created');
  });
});
