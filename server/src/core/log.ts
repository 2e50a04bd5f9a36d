// Leveled messages. A run says what it does at four levels, and each surface shows down to its own
// threshold: the CLI at info (--verbose: debug, --quiet: warn), VS Code's output channel through the
// LSP's message types (error, warning, info, log), whose level the person sets in the channel.
const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Whether a message at `level` shows where `threshold` is set (info shows error, warn and info). */
export function shows(threshold: LogLevel, level: LogLevel): boolean {
  return LOG_LEVELS.indexOf(level) <= LOG_LEVELS.indexOf(threshold);
}
