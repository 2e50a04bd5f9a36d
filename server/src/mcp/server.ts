import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { version } from '../../../package.json';
import { lazyJsonSchemaValidator } from './lazyValidator';
import { readingTools, type ReadingToolOptions } from './readingTools';
import { registerRunTools, type RunTools } from './runTools';
import { REPO_TOOLS } from './toolNames';

export interface WorkspaceServerOptions extends ReadingToolOptions {
  /** adds tests_generate and tests_run (`amtp mcp`); without it the server only reads */
  runs?: RunTools;
  /** aborts running tool calls when the server shuts down */
  signal?: AbortSignal;
  /** how long a person has to answer a confirmation (default 10 minutes) */
  approvalTimeoutMs?: number;
}

/** The workspace MCP server: path-safe reading tools over one root directory, plus the run tools when given. */
export function createWorkspaceServer(root: string, opts: WorkspaceServerOptions = {}): McpServer {
  const tools = readingTools(root, opts);
  const server = new McpServer({ name: 'amtp-workspace', version }, { jsonSchemaValidator: lazyJsonSchemaValidator() });
  for (const t of tools) server.registerTool(REPO_TOOLS[t.name], t.config, t.handler);
  if (opts.runs) registerRunTools(server, opts.runs, { signal: opts.signal, approvalTimeoutMs: opts.approvalTimeoutMs });
  return server;
}
