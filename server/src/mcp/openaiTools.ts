import type { Tool } from '@modelcontextprotocol/sdk/types.js';

/** OpenAI function names allow [A-Za-z0-9_-] only, so `repo.tree` travels as `repo__tree`. */
export function toOpenAiName(mcpName: string): string {
  return mcpName.replace(/\./g, '__');
}

export function fromOpenAiName(openAiName: string): string {
  return openAiName.replace(/__/g, '.');
}

export interface OpenAiFunctionTool {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown> };
}

/** MCP tool definitions (from `client.listTools()`) as OpenAI chat-completions function tools. */
export function toOpenAiTools(tools: Pick<Tool, 'name' | 'description' | 'inputSchema'>[]): OpenAiFunctionTool[] {
  return tools.map((t) => {
    // OpenAI rejects the JSON-Schema meta keys the SDK emits; keep the object schema itself.
    const { $schema: _s, ...parameters } = t.inputSchema as Record<string, unknown>;
    return {
      type: 'function',
      function: { name: toOpenAiName(t.name), description: t.description, parameters: { type: 'object', properties: {}, ...parameters } },
    };
  });
}
