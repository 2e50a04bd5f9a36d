// Issue 21, rows 5, 9 and 10a: what the MCP read tools serve from a hostile workspace. A named pipe
// or socket is refused before any blocking open (the server keeps answering), credentials are
// redacted as the crawler redacts them, .env files are not served, and a tree deeper than the walk
// goes is reported as cut, never cut silently.
import { strict as assert } from 'node:assert';
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { crawlWorkspace } from '../../server/src/agents/crawler/staticMap';
import { connectInProcess } from '../../server/src/mcp/inProcess';
import { REDACTED } from '../../server/src/util/redact';
import { CLI } from '../helpers/cli';
import { makeAddWorkspace } from '../helpers/scriptedModel';
import { rmTemp, tally } from './helpers/common';

type ToolResult = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: Record<string, unknown> };

const KEY = `sk-proj-${randomBytes(16).toString('hex')}`;
const TOKEN = `ghp_${randomBytes(18).toString('hex')}`;
const DB_PASSWORD = `pw${randomBytes(6).toString('hex')}`;

async function stdioClient(
  ws: string,
): Promise<{ call: (name: string, args: Record<string, unknown>) => Promise<ToolResult>; close: () => Promise<void> }> {
  const client = new Client({ name: 'hostile', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', ws], stderr: 'pipe' }));
  return {
    // A short per-call timeout: a blocked server shows as a timeout, not as a hung suite.
    call: async (name, args) => (await client.callTool({ name, arguments: args }, undefined, { timeout: 10_000 })) as ToolResult,
    close: () => client.close(),
  };
}

describe('hostile 2: what the MCP read tools serve (issue 21)', function () {
  this.timeout(120_000);
  const dirs: string[] = [];
  after(() => Promise.all(dirs.map((d) => rmTemp(d))));
  const workspace = async () => {
    const ws = await makeAddWorkspace('amtp-mcp-reads-');
    dirs.push(path.dirname(ws));
    return ws;
  };

  it('repo_read_file on a named pipe, a link to it or a socket is refused at once, and later calls still answer', async () => {
    const ws = await workspace();
    execFileSync('mkfifo', [path.join(ws, 'pipe')]);
    await fsp.symlink('pipe', path.join(ws, 'pipe-link'));
    const sock = net.createServer().listen(path.join(ws, 'sock'));
    await new Promise((r) => sock.once('listening', r));
    const mcp = await stdioClient(ws);
    try {
      for (const p of ['pipe', 'pipe-link', 'sock']) {
        const r = await mcp.call('repo_read_file', { path: p });
        assert.equal(r.isError, true, p);
        assert.match(r.content[0].text, /not a regular file/, p);
      }
      const tree = await mcp.call('repo_tree', {});
      assert.equal(tree.isError, undefined);
      assert.match(tree.content[0].text, /index\.js/);
      const search = await mcp.call('repo_search', { query: 'add' });
      assert.equal(search.isError, undefined);
      assert.match(search.content[0].text, /index\.js:\d+:/);
      const read = await mcp.call('repo_read_file', { path: 'index.js' });
      assert.match(read.content[0].text, /function add/);
    } finally {
      await mcp.close();
      sock.close();
    }
    tally('3 MCP reads of special files', { tried: 6 });
  });

  it('credentials are redacted from what the tools return; .env files are not served', async () => {
    const ws = await workspace();
    await fsp.writeFile(path.join(ws, '.env'), `OPENAI_API_KEY=${KEY}\nDATABASE_URL=postgres://app:${DB_PASSWORD}@db:5432/app\n`);
    await fsp.writeFile(path.join(ws, '.env.local'), `GITHUB_TOKEN=${TOKEN}\n`);
    await fsp.writeFile(path.join(ws, '.env.example'), 'OPENAI_API_KEY=\nDATABASE_URL=postgres://localhost/app\n');
    await fsp.mkdir(path.join(ws, '.git'));
    await fsp.writeFile(
      path.join(ws, '.git/config'),
      `[remote "origin"]\n\turl = https://bot:${TOKEN}@github.com/o/r.git\n[http]\n\textraheader = AUTHORIZATION: basic ${Buffer.from(`bot:${DB_PASSWORD}`).toString('base64')}\n`,
    );
    await fsp.writeFile(path.join(ws, 'config.js'), `module.exports = { apiKey: "${KEY}", db: "postgres://app:${DB_PASSWORD}@db/app" };\n`);
    const mcp = await stdioClient(ws);
    const seen: string[] = [];
    try {
      for (const p of ['.env', '.env.local']) {
        const r = await mcp.call('repo_read_file', { path: p });
        seen.push(JSON.stringify(r));
        assert.equal(r.isError, true, p);
        assert.match(r.content[0].text, /refused: .* holds environment secrets/, p);
      }
      const example = await mcp.call('repo_read_file', { path: '.env.example' });
      assert.match(example.content[0].text, /DATABASE_URL=postgres:\/\/localhost\/app/, 'a template without secrets is served');
      for (const p of ['.git/config', 'config.js']) {
        const r = await mcp.call('repo_read_file', { path: p });
        seen.push(JSON.stringify(r));
        assert.equal(r.isError, undefined, p);
        assert.ok(r.content[0].text.includes(REDACTED), `${p}: ${r.content[0].text}`);
      }
      for (const query of [KEY.slice(0, 12), 'postgres', 'url =', 'TOKEN']) {
        const r = await mcp.call('repo_search', { query });
        seen.push(JSON.stringify(r));
        const files = ((r.structuredContent?.matches ?? []) as { path: string }[]).map((m) => m.path);
        assert.ok(!files.some((f) => f.startsWith('.env') && f !== '.env.example'), `${query}: ${files.join(', ')}`);
      }
    } finally {
      await mcp.close();
    }
    const leaked = [KEY, TOKEN, DB_PASSWORD].filter((s) => seen.some((t) => t.includes(s)));
    tally('6 secrets', { tried: 9, failures: leaked.length });
    assert.deepEqual(leaked, [], 'no credential in any tool result');
  });

  it('a 5,000-level tree: the cut at the walk’s depth limit is reported (truncated, omitted), never silent', async () => {
    const ws = await workspace();
    // Made level by level from inside (a 10,000-character path is over PATH_MAX for one mkdir).
    execFileSync('python3', [
      '-c',
      "import os,sys\nos.chdir(sys.argv[1])\nfor _ in range(5000):\n  os.mkdir('d'); os.chdir('d')\nopen('deep.js','w').write('module.exports = 1\\n')",
      ws,
    ]);
    try {
      const mcp = await connectInProcess(ws);
      try {
        const r = (await mcp.client.callTool({ name: 'repo_tree', arguments: {} })) as ToolResult;
        const s = r.structuredContent as { truncated: boolean; depthCut: number; skipped: { path: string; reason: string }[] };
        assert.equal(s.truncated, true);
        assert.equal(s.depthCut, 1);
        assert.ok(s.skipped.some((x) => /deeper than 256 levels/.test(x.reason)));
      } finally {
        await mcp.close();
      }
      const { map } = await crawlWorkspace(ws);
      assert.equal(map.tree.truncated, true);
      const cut = (map.omitted ?? []).find((o) => /deeper than 256 levels/.test(o.what));
      assert.ok(cut, JSON.stringify(map.omitted));
      assert.equal(cut.count, 1);
    } finally {
      // GNU rm walks with openat, so it removes what a path-based rm cannot reach.
      spawnSync('rm', ['-rf', path.join(ws, 'd')]);
    }
    tally('3 hostile trees', { tried: 1 });
  });
});
