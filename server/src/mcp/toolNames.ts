// MCP tool names. Several MCP clients refuse names outside ^[A-Za-z0-9_-]{1,64}$ (Claude Desktop,
// Cursor) or rename them (VS Code), so the names on the wire use underscores. Inside AMTP the
// dotted names stay: the gateway's risk table (core/risk.ts), `amtp.riskOverrides`, `--risk` and
// recordings all use them. This is the one place that maps between the two.
import type { ToolName } from '../core/risk';

export const MCP_TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** The workspace reading tools: internal (gateway) name → MCP name. */
export const REPO_TOOLS = {
  'repo.tree': 'repo_tree',
  'repo.read_file': 'repo_read_file',
  'repo.search': 'repo_search',
} as const satisfies Partial<Record<ToolName, string>>;

export type RepoTool = keyof typeof REPO_TOOLS;

/** The tools that run the pipeline (only when the server is given a RunTools implementation). */
export const RUN_TOOLS = { generate: 'tests_generate', run: 'tests_run', review: 'tests_review', lessons: 'tests_lessons' } as const;

/** The MCP name of an internal tool name; a name with no mapping passes through unchanged. */
export function mcpToolName(internal: string): string {
  return Object.hasOwn(REPO_TOOLS, internal) ? REPO_TOOLS[internal as RepoTool] : internal;
}
