// The workspace reading tools (repo.tree, repo.read_file, repo.search), each defined once: its MCP
// name, description, input schema and handler. server.ts registers them on the MCP server; the
// crawler in this process calls the same definitions directly (`readingToolCaller`), with the same
// argument check and the same results, without the MCP SDK's message layer: loading the SDK and
// checking every message with zod cost a fresh `amtp crawl` more CPU than reading the files did.
import * as fs from 'node:fs';
import { z } from 'zod';
import type { ResponseCache } from './cache';
import { readWorkspaceFile } from './readFile';
import { searchWorkspaceShared } from './search';
import { ToolError, toToolError } from './toolError';
import type { RepoTool } from './toolNames';
import { treeTool, type TreeText } from './treeTool';
import { REDACTED, redactText } from '../util/redact';
import type { WalkOptions } from './walk';
import type { CallTool } from '../core/toolCall';

type ToolResult = { content: { type: 'text'; text: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };

export interface ReadingToolOptions {
  cache?: ResponseCache;
  /** defaults for every walk (the benchmark turns .gitignore off to compare with `rg --no-ignore-vcs`) */
  walk?: Pick<WalkOptions, 'gitignore'>;
  /**
   * redact credentials from file contents and search matches (default true). Only AMTP's own crawler
   * turns it off: it parses the bytes, and redacts the map before any of it reaches a model.
   */
  redact?: boolean;
  /** repo.tree's text: a line per entry (default), or the count line alone for a client that reads the structured entries (treeTool.ts) */
  treeText?: TreeText;
}

/** One reading tool: what the MCP server registers, and what a direct caller checks and runs. */
export interface ReadingTool<S extends z.ZodRawShape = z.ZodRawShape> {
  name: RepoTool;
  config: { description: string; inputSchema: S; annotations: { readOnlyHint: true } };
  handler: (args: z.objectOutputType<S, z.ZodTypeAny>) => Promise<ToolResult>;
}

const tool = <S extends z.ZodRawShape>(t: ReadingTool<S>): ReadingTool<S> => t;

/** The one root the reading tools serve (symlinks resolved), checked to be a directory. */
export function readingTools(root: string, opts: ReadingToolOptions = {}): ReadingTool[] {
  const realRoot = fs.realpathSync(root);
  if (!fs.statSync(realRoot).isDirectory()) throw new Error(`not a directory: ${root}`);
  const w: Workspace = {
    root: realRoot,
    walk: { gitignore: opts.walk?.gitignore },
    cache: opts.cache,
    redact: opts.redact === false ? undefined : (t) => redactText(t),
    treeText: opts.treeText ?? 'lines',
  };
  return [treeToolOf(w), readFileToolOf(w), searchToolOf(w)] as unknown as ReadingTool[];
}

/**
 * Calls the reading tools by internal name (`repo.tree`) in this process. Arguments are checked with
 * the tool's own schema, as the MCP server checks them; a bad one is an error result, as there.
 */
export function readingToolCaller(root: string, opts: ReadingToolOptions = {}): CallTool {
  const byName = new Map(readingTools(root, opts).map((t) => [t.name, { t, schema: z.object(t.config.inputSchema) }]));
  return async (name, args) => {
    const entry = byName.get(name as RepoTool);
    if (!entry) return errorResult(`unknown tool: ${name}`);
    const parsed = entry.schema.safeParse(args);
    if (!parsed.success) return errorResult(`Input validation error: Invalid arguments for tool ${name}: ${parsed.error.message}`);
    return entry.t.handler(parsed.data);
  };
}

const errorResult = (text: string): ToolResult => ({ content: [{ type: 'text', text }], isError: true });

interface Workspace {
  /** the root with symlinks resolved (path checks compare against it) */
  root: string;
  walk: WalkOptions;
  cache?: ResponseCache;
  /** what leaves the server of a file's text: credentials redacted (util/redact.ts), as the crawler redacts them */
  redact?: (text: string) => string;
  treeText: TreeText;
}

/** repo.tree: the sorted workspace tree. */
function treeToolOf(w: Workspace) {
  return tool({
    name: 'repo.tree',
    config: {
      description:
        'List the workspace tree (sorted, .gitignore/.amtpignore honoured, node_modules/.git/build output skipped). ' +
        'Entries are {path, type, size, language}; `truncated` is true when `limit` cut the list or a folder was deeper than 256 levels ' +
        '(`depthCut` counts those folders, `skipped` names them).',
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
    handler: async (args) => wrap(args.path ?? '.', () => treeTool(w.root, args, w.walk, w.cache, w.treeText)),
  });
}

/** repo.read_file: one text file, or a line range of it. */
function readFileToolOf(w: Workspace) {
  return tool({
    name: 'repo.read_file',
    config: {
      description:
        'Read a text file of the workspace (UTF-8). Refuses paths outside the workspace, anything but a regular file, binary files, ' +
        '.env files, files over maxBytes unless a line range is given, and non-UTF-8 files unless encoding is "latin1". ' +
        'Credentials in the text (API keys, tokens, passwords, URL user:password) are replaced by [REDACTED].',
      inputSchema: {
        path: z.string().describe('workspace-relative path with forward slashes'),
        startLine: z.number().int().min(1).optional().describe('first line to return, 1-based (default 1)'),
        endLine: z.number().int().min(1).optional().describe('last line to return, inclusive (default: the end of the file)'),
        maxBytes: z
          .number()
          .int()
          .min(1)
          .optional()
          .describe('refuse (or, with a line range, truncate at) this many bytes; default 262144'),
        encoding: z
          .enum(['utf8', 'latin1'])
          .optional()
          .describe('utf8 (default) refuses invalid UTF-8; latin1 reads any text byte for byte'),
      },
      annotations: { readOnlyHint: true },
    },
    handler: async (args) =>
      wrap(args.path, async () => {
        const read = await readWorkspaceFile(w.root, args, w.cache);
        const r = w.redact ? { ...read, content: redactRead(read, w.redact) } : read;
        return { text: r.truncated ? `${r.content}\n[truncated]` : r.content, structured: { ...r } };
      }),
  });
}

/** repo.search: literal or regular-expression matches across text files. */
function searchToolOf(w: Workspace) {
  return tool({
    name: 'repo.search',
    config: {
      description:
        'Search text files of the workspace (not .env files) for a literal string or a JavaScript regular expression. ' +
        'Returns {path, line, text} matches, credentials in the text replaced by [REDACTED].',
      inputSchema: {
        query: z.string().describe('the text to find (a JavaScript regular expression when regex is true)'),
        regex: z.boolean().optional().describe('treat query as a regular expression (default false: literal text)'),
        caseSensitive: z.boolean().optional().describe('match case exactly (default false)'),
        include: z.array(z.string()).optional().describe('glob patterns files must match, e.g. ["src/**/*.ts"]'),
        exclude: z.array(z.string()).optional().describe('glob patterns to leave out'),
        maxResults: z.number().int().min(1).max(1000).optional().describe('stop after this many matches (default 100)'),
        maxFileBytes: z.number().int().min(1).optional().describe('skip files larger than this (default 1048576)'),
      },
      annotations: { readOnlyHint: true },
    },
    handler: async (args) =>
      wrap(args.query, async () => {
        const r = await searchWorkspaceShared(w.root, args, w.walk, w.cache, w.redact);
        const lines = r.matches.map((m) => `${m.path}:${m.line}: ${m.text}`);
        if (r.truncated) lines.push('[truncated]');
        return { text: lines.join('\n') || 'no matches', structured: { ...r } };
      }),
  });
}

/**
 * A read's text as the tool returns it: credentials redacted, and the word a byte limit cut in two
 * hidden too (a secret's first characters are not a credential's shape yet: reading one byte more
 * each time would spell it out).
 */
function redactRead(r: { content: string; truncated: boolean }, redact: (t: string) => string): string {
  const text = redact(r.content);
  return r.truncated && !text.endsWith('\n') ? text.replace(/\S+$/, REDACTED) : text;
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
