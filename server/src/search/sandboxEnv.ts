// What every child AMTP starts to run workspace code shares beside its environment (util/childEnv.ts)
// and its confinement (frameworks/run/confine.ts): the variables set for it, and killing the child's
// whole process group.
import type { ChildProcess } from 'node:child_process';
import { killTree } from '../util/killTree';

/** What a sandbox child gets beside childEnv's allow-list: UTC, so pinned dates do not depend on the machine. */
export const SANDBOX_VARS = { TZ: 'UTC', FORCE_COLOR: '0', NO_COLOR: '1' };

/** Kills the child's whole process tree (it was started detached, so it leads a group): util/killTree.ts. */
export function killGroup(child: ChildProcess): void {
  void killTree(child.pid, { leaderExited: child.exitCode !== null || child.signalCode !== null });
}
