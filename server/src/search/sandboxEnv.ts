// What every child AMTP starts to run workspace code shares beside its environment (util/childEnv.ts)
// and its confinement (frameworks/run/confine.ts): the variables set for it, and killing the child's
// whole process group.
import type { ChildProcess } from 'node:child_process';

/** What a sandbox child gets beside childEnv's allow-list: UTC, so pinned dates do not depend on the machine. */
export const SANDBOX_VARS = { TZ: 'UTC', FORCE_COLOR: '0', NO_COLOR: '1' };

/** Kills the child's whole process group (it was started detached, so it leads one). */
export function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    /* the group is already gone */
  }
}
