// Dispatch: parse argv, then run the command. Each command's code lives in its own file.
import { AmtpError, errorMessage } from '../core/errors';
import { EXIT } from '../pipeline/summary';
import { parseCli } from './args';
import type { CommandName } from './commands';
import type { FlagValues } from './flags';
import { VERSION, commandHelp, usage } from './help';
import { mcp } from './mcpCommand';
import { lessons, review } from './reviewCommands';
import { approve, generate, resume } from './runCommands';
import { crawl, replay, replayCheckCommand, runs } from './workspaceCommands';

type Handler = (positionals: string[], values: FlagValues, signal: AbortSignal) => Promise<number>;

const HANDLERS: Record<CommandName, Handler> = {
  generate,
  crawl,
  runs,
  resume,
  approve,
  replay,
  'verify-determinism': replayCheckCommand,
  mcp,
  review,
  lessons,
};

export async function main(argv: string[], signal: AbortSignal): Promise<number> {
  const p = parseCli(argv);
  if (p.command === 'version') {
    process.stdout.write(VERSION + '\n');
    return EXIT.ok;
  }
  if (p.command === 'help') {
    process.stdout.write((p.topic ? commandHelp(p.topic) : usage()) + '\n');
    return EXIT.ok;
  }
  try {
    return await HANDLERS[p.command](p.positionals, p.values, signal);
  } catch (e) {
    // With --json, a run that could not start still answers in JSON on stdout (CI parses it);
    // the message goes to stderr as for any error (cli.ts).
    if (p.values.json)
      process.stdout.write(
        JSON.stringify(
          { status: 'failed', error: { kind: e instanceof AmtpError ? e.kind : 'Error', message: errorMessage(e) } },
          null,
          2,
        ) + '\n',
      );
    throw e;
  }
}
