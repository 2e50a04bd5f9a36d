// Dispatch: parse argv, then run the command. Each command's code lives in its own file.
import { closeServices } from '../app/store';
import { loadPython } from '../frameworks/pyGrammar';
import { loadJsParser } from '../util/jsParser';
import { AmtpError, errorMessage } from '../core/errors';
import { EXIT } from '../core/exitCodes';
import { parseCli } from './args';
import type { CommandName } from './commands';
import type { FlagValues } from './flags';
import { VERSION, commandHelp, usage } from './help';

type Handler = (positionals: string[], values: FlagValues, signal: AbortSignal) => Promise<number>;

/**
 * Each command's file is loaded when the command runs: the bundle is one file, and a command runs
 * the top-level code of only what it imports (`amtp crawl` none of the pipeline, verifier or LLM client).
 */
const HANDLERS: Record<CommandName, () => Promise<Handler>> = {
  generate: async () => (await import('./runCommands')).generate,
  crawl: async () => (await import('./crawlCommand')).crawl,
  runs: async () => (await import('./workspaceCommands')).runs,
  resume: async () => (await import('./runCommands')).resume,
  approve: async () => (await import('./runCommands')).approve,
  replay: async () => (await import('./workspaceCommands')).replay,
  'verify-determinism': async () => (await import('./workspaceCommands')).replayCheckCommand,
  mcp: async () => (await import('./mcpCommand')).mcp,
  worker: async () => (await import('./workerCommand')).worker,
  review: async () => (await import('./reviewCommands')).review,
  lessons: async () => (await import('./reviewCommands')).lessons,
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
    // Python and JavaScript are parsed synchronously once their parsers are loaded (frameworks/pyGrammar.ts,
    // util/jsParser.ts): loaded here, beside the command's code, for whatever the command reads. A failed
    // load stops only a parse of that language.
    const [handler] = await Promise.all([
      HANDLERS[p.command](),
      loadPython().catch(() => undefined),
      loadJsParser().catch(() => undefined),
    ]);
    return await handler(p.positionals, p.values, signal);
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
  } finally {
    await closeServices(); // store, cache and queue connections: the process ends when the command does
  }
}
