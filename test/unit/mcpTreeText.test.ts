import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import { ResponseCache } from '../../server/src/mcp/cache';
import { connectInProcess } from '../../server/src/mcp/inProcess';
import { makeRepo, removeRepos } from '../helpers/fixtureRepo';

type Tree = { content: { text: string }[]; structuredContent: Record<string, unknown> };

// The crawler's in-process server answers repo.tree with the count line as its text (it reads the
// structured entries); every other client gets a line per entry. Both carry the same entries.
after(removeRepos);

describe('repo.tree text forms', () => {
  it('lines by default, the count line alone with treeText "summary", the same structured result, cached apart', async () => {
    const dir = await makeRepo('treetext', { 'a.js': 'x', 'lib/b.js': 'yy' });
    const cache = new ResponseCache();
    const full = await connectInProcess(dir, { cache });
    const brief = await connectInProcess(dir, { cache, treeText: 'summary' });
    try {
      const a = (await full.client.callTool({ name: 'repo_tree', arguments: {} })) as Tree;
      const b = (await brief.client.callTool({ name: 'repo_tree', arguments: {} })) as Tree;
      assert.equal(a.content[0].text, 'a.js (1)\nlib/\nlib/b.js (2)\n[2 files, 1 dirs]');
      assert.equal(b.content[0].text, '[2 files, 1 dirs]');
      assert.deepEqual(b.structuredContent, a.structuredContent);
      const again = (await full.client.callTool({ name: 'repo_tree', arguments: {} })) as Tree;
      assert.equal(again.content[0].text, a.content[0].text, 'a summary in the shared cache is not served as the lines');
    } finally {
      await full.close();
      await brief.close();
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });
});
