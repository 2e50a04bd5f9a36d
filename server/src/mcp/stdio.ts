import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ResponseCache } from './cache';
import { createWorkspaceServer } from './server';

/** `amtp mcp DIR`: serves the workspace tools over stdio until stdin closes. */
export async function runMcpStdio(dir: string): Promise<void> {
  const server = createWorkspaceServer(dir, { cache: new ResponseCache() });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close().catch(() => undefined);
}
