import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { MCP_TOOL_NAME } from './toolNames';

export interface OpenAiFunctionTool {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown> };
}

/**
 * MCP tool definitions (from `client.listTools()`) as OpenAI chat-completions function tools. MCP
 * names already match OpenAI's rule (^[A-Za-z0-9_-]{1,64}$, mcp/toolNames.ts), so a function call's
 * name is the MCP tool's name; a tool from another server that breaks the rule is refused here.
 */
export function toOpenAiTools(tools: Pick<Tool, 'name' | 'description' | 'inputSchema'>[]): OpenAiFunctionTool[] {
  return tools.map((t) => {
    if (!MCP_TOOL_NAME.test(t.name)) throw new Error(`tool name ${JSON.stringify(t.name)} is not a valid function name (${MCP_TOOL_NAME})`);
    // OpenAI rejects the JSON-Schema meta keys the SDK emits; keep the object schema itself.
    const { $schema: _s, ...parameters } = t.inputSchema as Record<string, unknown>;
    return {
      type: 'function',
      function: { name: t.name, description: t.description, parameters: { type: 'object', properties: {}, ...parameters } },
    };
  });
}
