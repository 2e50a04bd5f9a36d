import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallTool, ToolResult } from '../../core/toolCall';
import type { SearchResult } from '../../mcp/search';
import type { TreeArgs, TreeResult } from '../../mcp/treeTool';
import type { ReadFileArgs, ReadFileResult } from '../../mcp/readFile';
import { mcpToolName } from '../../mcp/toolNames';

export type ReadOutcome = { ok: true; file: ReadFileResult } | { ok: false; reason: string };

/** The crawler's only view of the workspace: typed calls to the MCP tools. */
export class WorkspaceReader {
  private readonly callTool: CallTool;

  /** From an MCP client, or from any tool caller (a recording tap, a replay). */
  constructor(source: Client | CallTool) {
    this.callTool = typeof source === 'function' ? source : clientCaller(source);
  }

  async tree(args: TreeArgs): Promise<TreeResult> {
    const r = await this.call('repo.tree', args as Record<string, unknown>);
    if (r.isError) throw new Error(`repo.tree failed: ${errorText(r)}`);
    return r.structuredContent as unknown as TreeResult;
  }

  /** Never throws for a bad file: the reason goes to `skipped`. */
  async read(path: string, opts: Omit<ReadFileArgs, 'path'> = {}): Promise<ReadOutcome> {
    try {
      const r = await this.call('repo.read_file', { path, ...opts });
      if (r.isError) return { ok: false, reason: errorText(r) };
      return { ok: true, file: r.structuredContent as unknown as ReadFileResult };
    } catch (e) {
      return { ok: false, reason: (e as Error).message };
    }
  }

  async search(args: Record<string, unknown>): Promise<SearchResult> {
    const r = await this.call('repo.search', args);
    if (r.isError) throw new Error(`repo.search failed: ${errorText(r)}`);
    return r.structuredContent as unknown as SearchResult;
  }

  private call(name: string, args: Record<string, unknown>): Promise<ToolResult> {
    return this.callTool(name, args);
  }
}

/** Calls by internal name (`repo.tree`, as recordings and the risk table spell it); the wire name is the MCP one (`repo_tree`). */
export function clientCaller(client: Client): CallTool {
  return async (name, args) => (await client.callTool({ name: mcpToolName(name), arguments: args })) as ToolResult;
}

function errorText(r: { content?: { type: string; text?: string }[] }): string {
  return (
    (r.content ?? [])
      .map((c) => c.text ?? '')
      .join(' ')
      .trim() || 'unknown error'
  );
}
