/**
 * Fault injection for the crash-safety tests: AMTP_CRASH_AT=crawler:persisted
 * makes the process SIGKILL itself at that boundary, exactly as an OOM killer
 * or a closed laptop would. Unset in normal use.
 */
const reached = new Map<string, number>();

/** `name`, or `name#n` to die the n-th time the point is reached (e.g. `generator:batch:committed#2`). */
export function crashPoint(name: string): void {
  const want = process.env.AMTP_CRASH_AT;
  if (!want || !want.startsWith(name)) return;
  const n = (reached.get(name) ?? 0) + 1;
  reached.set(name, n);
  if (want === name || want === `${name}#${n}`) process.kill(process.pid, 'SIGKILL');
}
