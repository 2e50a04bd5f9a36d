import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import { connectInProcess } from '../../server/src/mcp/inProcess';
import { readingToolCaller } from '../../server/src/mcp/readingTools';
import { clientCaller } from '../../server/src/agents/crawler/workspaceReader';
import { makeRepo, removeRepos } from '../helpers/fixtureRepo';

// The crawler calls the reading tools in its own process (readingTools.ts); an MCP client gets them
// through the server. Both are the same definitions: the same results, the same refusals.
after(removeRepos);

describe('reading tools called directly', () => {
  it('answers every reading tool as the MCP server does, and checks arguments with the same schema', async () => {
    const dir = await makeRepo('readingtools', {
      'a.js': 'export const a = 1;\n',
      'lib/b.js': 'const token = "ghp_0123456789abcdefghijABCDEFGHIJ012345";\nmodule.exports = token;\n',
      '.env': 'SECRET=1\n',
    });
    const ws = await connectInProcess(dir);
    try {
      const viaMcp = clientCaller(ws.client);
      const direct = readingToolCaller(dir);
      const calls: [string, Record<string, unknown>][] = [
        ['repo.tree', {}],
        ['repo.read_file', { path: 'lib/b.js' }],
        ['repo.read_file', { path: 'lib/b.js', startLine: 2, endLine: 2 }],
        ['repo.read_file', { path: '.env' }],
        ['repo.read_file', { path: '../outside.js' }],
        ['repo.search', { query: 'exports' }],
      ];
      for (const [name, args] of calls)
        assert.deepEqual(await direct(name, args), await viaMcp(name, args), `${name} ${JSON.stringify(args)}`);
      const read = await direct('repo.read_file', { path: 'lib/b.js' });
      assert.match(String(read.structuredContent?.content), /\[REDACTED\]/, 'redacted by default, as on the server');
      const bad = await direct('repo.read_file', { path: 'a.js', startLine: 0 });
      assert.equal(bad.isError, true);
      assert.match(bad.content?.[0].text ?? '', /Input validation error: Invalid arguments for tool repo\.read_file/);
      const unknown = await direct('tests.run', {});
      assert.deepEqual(unknown, { content: [{ type: 'text', text: 'unknown tool: tests.run' }], isError: true });
      const unredacted = await readingToolCaller(dir, { redact: false })('repo.read_file', { path: 'lib/b.js' });
      assert.match(String(unredacted.structuredContent?.content), /ghp_0123456789abcdefghijABCDEFGHIJ012345/);
    } finally {
      await ws.close();
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a root that is not a directory', async () => {
    const dir = await makeRepo('readingtools-file', { 'f.txt': 'x' });
    try {
      assert.throws(() => readingToolCaller(`${dir}/f.txt`), /not a directory/);
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });
});
