import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ResponseCache } from './cache';
import type { RunTools } from './runTools';
import { createWorkspaceServer } from './server';

/** `amtp mcp DIR`: serves the workspace tools over stdio until stdin closes or `signal` aborts (Ctrl-C). */
export async function runMcpStdio(dir: string, opts: { runs?: RunTools; signal?: AbortSignal } = {}): Promise<void> {
  const server = createWorkspaceServer(dir, { cache: new ResponseCache(), runs: opts.runs, signal: opts.signal });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
    opts.signal?.addEventListener('abort', () => resolve(), { once: true });
  });
  await server.connect(transport);
  await closed;
  await server.close().catch(() => undefined);
}
