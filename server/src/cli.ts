// The `amtp` entry point: runs one command, maps the outcome to an exit code (the list is in
// cli/help.ts, EXIT_CODES), and turns Ctrl-C into a clean cancel (the run record says cancelled)
// followed by exit 130. A second Ctrl-C quits at once.
import { AmtpError, UsageError, errorMessage } from './core/errors';
import { EXIT } from './core/exitCodes';
import { main } from './cli/main';

const err = (line: string) => process.stderr.write(line + '\n');

const controller = new AbortController();
process.on('SIGINT', () => {
  if (controller.signal.aborted) process.exit(EXIT.interrupted);
  err('amtp: cancelling… (Ctrl-C again to quit at once)');
  controller.abort();
});

main(process.argv.slice(2), controller.signal).then(
  (code) => {
    process.exitCode = controller.signal.aborted ? EXIT.interrupted : code;
  },
  (e) => {
    if (controller.signal.aborted) {
      err(`amtp: cancelled: ${errorMessage(e)}`);
      process.exitCode = EXIT.interrupted;
    } else if (e instanceof UsageError) {
      err(`amtp: ${e.message}\nRun \`amtp --help\` for the commands, \`amtp help COMMAND\` for a command's flags.`);
      process.exitCode = EXIT.usage;
    } else {
      err(`amtp: ${e instanceof AmtpError ? `${e.kind}: ` : ''}${errorMessage(e)}`);
      process.exitCode = EXIT.failed;
    }
  },
);
