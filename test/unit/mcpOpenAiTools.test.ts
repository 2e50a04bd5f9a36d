import { strict as assert } from 'node:assert';
import * as os from 'node:os';
import { connectInProcess } from '../../server/src/mcp/inProcess';
import { fromOpenAiName, toOpenAiName, toOpenAiTools } from '../../server/src/mcp/openaiTools';

describe('mcp OpenAI tool mapping', () => {
  it('maps dotted MCP names to OpenAI-safe names and back', () => {
    assert.equal(toOpenAiName('repo.tree'), 'repo__tree');
    assert.equal(fromOpenAiName('repo__read_file'), 'repo.read_file');
  });

  it('converts the server tool list to function tools with valid names', async () => {
    const ws = await connectInProcess(os.tmpdir());
    try {
      const tools = toOpenAiTools((await ws.client.listTools()).tools);
      assert.deepEqual(tools.map((t) => t.function.name).sort(), ['repo__read_file', 'repo__search', 'repo__tree']);
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
});
