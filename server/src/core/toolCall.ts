// How the crawler calls a reading tool (repo.tree, repo.read_file, repo.search): the MCP tool
// result's shape, as the crawler's reader consumes it. The tools are defined in mcp/readingTools.ts;
// a recording taps the calls and a replay answers them (record/toolTap.ts).

export interface ToolResult {
  isError?: boolean;
  content?: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
}

export type CallTool = (name: string, args: Record<string, unknown>) => Promise<ToolResult>;
