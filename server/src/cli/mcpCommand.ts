// `amtp mcp [DIR]`: the workspace MCP server over stdio, with the run tools.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { UsageError } from '../core/errors';
import { runMcpStdio } from '../mcp/stdio';
import { EXIT } from '../core/exitCodes';
import { riskFlags } from './args';
import type { FlagValues } from './flags';
import { mcpRuns } from './mcpRuns';
import { defaultProvider, endpointSettings } from './endpointOptions';
import { workspaceArg } from './io';

/**
 * The folder to serve when no DIR is given: the current one, unless it is / or the home folder.
 * MCP hosts (Claude Desktop among them) often start servers there, and serving it would hand a
 * model every file of the machine or of the person.
 */
export function defaultServedFolder(cwd = process.cwd(), home = os.homedir()): string {
  const real = (p: string) => {
    try {
      return fs.realpathSync(p);
    } catch {
      return path.resolve(p);
    }
  };
  const here = real(cwd);
  const why = here === path.parse(here).root ? 'the root folder' : here === real(home) ? 'your home folder' : undefined;
  if (why)
    throw new UsageError(
      `no DIR given and the current folder is ${why} (${here}); amtp mcp serves one project: pass its folder, e.g. amtp mcp /path/to/project`,
    );
  return here;
}

export async function mcp(positionals: string[], v: FlagValues, signal: AbortSignal): Promise<number> {
  const ws = await workspaceArg(positionals[0] ?? defaultServedFolder());
  // stdout belongs to the MCP protocol from here on; logs go to stderr.
  await runMcpStdio(ws, {
    runs: mcpRuns({
      workspace: ws,
      llm: endpointSettings(defaultProvider(v.provider, process.env), v, process.env),
      risk: riskFlags(v.risk),
    }),
    signal,
  });
  return EXIT.ok;
}
