// A real MCP SDK client linked in memory to AMTP's workspace server (offline runs), as a calling
// model would use it: `answer` plays the person when the server asks (elicitation); without it the
// client cannot ask, as a host without elicitation.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { mcpRuns } from '../../server/src/cli/mcpRuns';
import type { RiskOverrides } from '../../server/src/gateway/policy';
import { createWorkspaceServer } from '../../server/src/mcp/server';

export type McpResult = {
  isError?: boolean;
  content: { type: string; text: string }[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a tool result's structured content is read field by field
  structuredContent?: any;
};

export async function connectMcp(ws: string, answer?: (req: ElicitRequest['params']) => ElicitResult, risk: RiskOverrides = {}) {
  const server = createWorkspaceServer(ws, { runs: mcpRuns({ workspace: ws, llm: { provider: 'offline' }, risk }) });
  const client = new Client({ name: 'test-host', version: '1' }, { capabilities: answer ? { elicitation: { form: {} } } : {} });
  const asked: ElicitRequest['params'][] = [];
  if (answer) client.setRequestHandler(ElicitRequestSchema, async (req) => (asked.push(req.params), answer(req.params)));
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(b);
  await client.connect(a);
  const call = async (name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as McpResult;
  return { client, asked, call, close: () => client.close().then(() => server.close()) };
}
