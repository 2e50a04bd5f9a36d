import * as fs from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { ResponseCache } from './cache';
import { readWorkspaceFile } from './readFile';
import { searchWorkspace } from './search';
import { ToolError, toToolError } from './toolError';
import { treeTool } from './treeTool';
import type { WalkOptions } from './walk';

export const TOOL_NAMES = ['repo.tree', 'repo.read_file', 'repo.search'] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

export interface WorkspaceServerOptions {
  cache?: ResponseCache;
  /** defaults for every walk (the benchmark turns .gitignore off to compare with `rg --no-ignore-vcs`) */
  walk?: Pick<WalkOptions, 'gitignore'>;
}

type ToolResult = { content: { type: 'text'; text: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };

/** The workspace MCP server: read-only, path-safe tools over one root directory. */
export function createWorkspaceServer(root: string, opts: WorkspaceServerOptions = {}): McpServer {
  const realRoot = fs.realpathSync(root);
  if (!fs.statSync(realRoot).isDirectory()) throw new Error(`not a directory: ${root}`);
  const cache = opts.cache;
  const walkDefaults: WalkOptions = { gitignore: opts.walk?.gitignore };
  const server = new McpServer({ name: 'amtp-workspace', version: '0.1.0' });

  server.registerTool(
    'repo.tree',
    {
      description:
        'List the workspace tree (sorted, .gitignore/.amtpignore honoured, node_modules/.git/build output skipped). ' +
        'Entries are {path, type, size, language}; `truncated` is true when `limit` cut the list.',
      inputSchema: {
        path: z.string().optional().describe('workspace-relative directory to list; default the root'),
        depth: z.number().int().min(1).max(256).optional().describe('directory levels to descend; 1 = direct children'),
        limit: z.number().int().min(1).max(1_000_000).optional().describe('maximum entries (default 5000)'),
        include: z.array(z.string()).optional().describe('glob patterns files must match, e.g. ["**/*.ts"]'),
        exclude: z.array(z.string()).optional().describe('glob patterns to leave out'),
        sizes: z.boolean().optional().describe('stat files for their sizes (default true)'),
      },
      annotations: { readOnlyHint: true },
    },
    async (args) => wrap(args.path ?? '.', () => treeTool(realRoot, args, walkDefaults, cache)),
  );

  server.registerTool(
    'repo.read_file',
    {
      description:
        'Read a text file of the workspace (UTF-8). Refuses paths outside the workspace, binary files, ' +
        'files over maxBytes unless a line range is given, and non-UTF-8 files unless encoding is "latin1".',
      inputSchema: {
        path: z.string().describe('workspace-relative path with forward slashes'),
        startLine: z.number().int().min(1).optional(),
        endLine: z.number().int().min(1).optional(),
        maxBytes: z.number().int().min(1).optional().describe('default 262144'),
        encoding: z.enum(['utf8', 'latin1']).optional(),
      },
      annotations: { readOnlyHint: true },
    },
    async (args) =>
      wrap(args.path, async () => {
        const r = await readWorkspaceFile(realRoot, args, cache);
        return { text: r.truncated ? `${r.content}\n[truncated]` : r.content, structured: { ...r } };
      }),
  );

  server.registerTool(
    'repo.search',
    {
      description: 'Search text files of the workspace for a literal string or a JavaScript regular expression. Returns {path, line, text} matches.',
      inputSchema: {
        query: z.string(),
        regex: z.boolean().optional(),
        caseSensitive: z.boolean().optional(),
        include: z.array(z.string()).optional(),
        exclude: z.array(z.string()).optional(),
        maxResults: z.number().int().min(1).max(1000).optional(),
        maxFileBytes: z.number().int().min(1).optional(),
      },
      annotations: { readOnlyHint: true },
    },
    async (args) =>
      wrap(args.query, async () => {
        const r = searchWorkspace(realRoot, args, walkDefaults, cache);
        const lines = r.matches.map((m) => `${m.path}:${m.line}: ${m.text}`);
        if (r.truncated) lines.push('[truncated]');
        return { text: lines.join('\n') || 'no matches', structured: { ...r } };
      }),
  );
  return server;
}

async function wrap(subject: string, fn: () => Promise<{ text: string; structured: Record<string, unknown> }>): Promise<ToolResult> {
  try {
    const { text, structured } = await fn();
    return { content: [{ type: 'text', text }], structuredContent: structured };
  } catch (e) {
    const err = e instanceof ToolError ? e : toToolError(e, subject);
    return { content: [{ type: 'text', text: err.message }], isError: true };
  }
}
