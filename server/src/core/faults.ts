/**
 * Fault injection for the crash-safety tests: AMTP_CRASH_AT=crawler:persisted
 * makes the process SIGKILL itself at that boundary, exactly as an OOM killer
 * or a closed laptop would. Unset in normal use.
 */
export function crashPoint(name: string): void {
  if (process.env.AMTP_CRASH_AT === name) process.kill(process.pid, 'SIGKILL');
}
