import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ResponseCache } from './cache';
import { lazyJsonSchemaValidator } from './lazyValidator';
import { createWorkspaceServer, type WorkspaceServerOptions } from './server';

export interface InProcessWorkspace {
  client: Client;
  cache: ResponseCache;
  close(): Promise<void>;
}

/** Links a workspace MCP server and a client in this process (no stdio, no serialization). */
export async function connectInProcess(root: string, opts: WorkspaceServerOptions = {}): Promise<InProcessWorkspace> {
  const cache = opts.cache ?? new ResponseCache();
  const server = createWorkspaceServer(root, { ...opts, cache });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'amtp-crawler', version: '0.1.0' }, { jsonSchemaValidator: lazyJsonSchemaValidator() });
  await server.connect(serverSide);
  await client.connect(clientSide);
  return {
    client,
    cache,
    async close() {
      await client.close();
      await server.close();
    },
  };
}
