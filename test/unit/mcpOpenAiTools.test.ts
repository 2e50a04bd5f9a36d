import { strict as assert } from 'node:assert';
import * as os from 'node:os';
import { connectInProcess } from '../../server/src/mcp/inProcess';
import { toOpenAiTools } from '../../server/src/mcp/openaiTools';

describe('mcp OpenAI tool mapping', () => {
  it('converts the server tool list to function tools under the same (valid) names', async () => {
    const ws = await connectInProcess(os.tmpdir());
    try {
      const tools = toOpenAiTools((await ws.client.listTools()).tools);
      assert.deepEqual(tools.map((t) => t.function.name).sort(), ['repo_read_file', 'repo_search', 'repo_tree']);
      for (const t of tools) {
        assert.match(t.function.name, /^[A-Za-z0-9_-]{1,64}$/);
        assert.equal(t.type, 'function');
        assert.equal(t.function.parameters.type, 'object');
        assert.equal('$schema' in t.function.parameters, false);
      }
    } finally {
      await ws.close();
    }
  });

  it('refuses a tool whose name no function call could carry', () => {
    assert.throws(
      () => toOpenAiTools([{ name: 'repo.tree', inputSchema: { type: 'object' } }]),
      /"repo\.tree" is not a valid function name/,
    );
  });
});
