// Network confinement of the workspace code AMTP runs (test runners, characterization), held by every
// process that code starts, not only the first one:
// - `namespace`: on Linux where unprivileged user namespaces work, the child starts in a network
//   namespace of its own (`unshare -rn`) whose only interface is loopback, brought up first, so
//   nothing it or its descendants start can reach another host, whatever language they are in.
// - `node-guard`: elsewhere (or with AMTP_NO_NETNS=1), NODE_OPTIONS preloads the guard
//   (assets/amtp.char-nonet.cjs) into every Node process of the tree that inherits the environment.
// Which one is in force is probed once per process and shown in the run summary (docs/security.md).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { Confinement } from '../../core/run';
import { childEnv } from '../../util/childEnv';
import { assetFile } from '../assets';

interface Namespace {
  unshare: string;
  ip: string;
}

let probed: { namespace?: Namespace; why?: string } | undefined;

/** Brings loopback up inside the new namespace, then becomes the command: no shell parses a path or argument. */
const LOOPBACK_UP = '"$0" link set lo up && exec "$@"';

/** The first executable `name` on PATH or in the system folders (ip lives in /usr/sbin, off most users' PATH). */
function which(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/sbin', '/usr/bin', '/bin'];
  return dirs
    .filter(Boolean)
    .map((d) => join(d, name))
    .find((p) => existsSync(p));
}

/** Can this machine start a child in a loopback-only network namespace? Asked once: a child node listens on loopback inside one. */
function probe(): { namespace?: Namespace; why?: string } {
  if (process.platform !== 'linux') return { why: `${process.platform} has no network namespaces` };
  if (process.env.AMTP_NO_NETNS === '1') return { why: 'AMTP_NO_NETNS=1' };
  const unshare = which('unshare');
  const ip = which('ip');
  if (!unshare || !ip) return { why: `${unshare ? 'ip (iproute2)' : 'unshare (util-linux)'} is not installed` };
  const home = mkdtempSync(join(tmpdir(), 'amtp-netns-'));
  try {
    const listen = "require('net').createServer().listen(0, '127.0.0.1', function () { this.close(); })";
    const r = spawnSync(unshare, ['-rn', '--', '/bin/sh', '-c', LOOPBACK_UP, ip, process.execPath, '-e', listen], {
      cwd: home,
      env: childEnv({ home }),
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: 10_000,
    });
    if (r.status === 0) return { namespace: { unshare, ip } };
    return { why: `unshare -rn failed: ${(r.stderr?.toString('utf8').trim() || r.error?.message || `exit ${r.status}`).slice(0, 200)}` };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

function probeOnce(): { namespace?: Namespace; why?: string } {
  probed ??= probe();
  return probed;
}

/** The confinement AMTP applies to workspace code on this machine, for the run record and the summary. */
export function networkConfinement(): Confinement {
  const p = probeOnce();
  if (p.namespace)
    return {
      network: 'namespace',
      detail: 'network namespace with loopback only (unshare -rn); no secrets in the environment, temporary HOME',
    };
  return {
    network: 'node-guard',
    detail: `Node processes refuse non-loopback connections (guard preloaded through NODE_OPTIONS; no namespace: ${p.why}); no secrets in the environment, temporary HOME`,
  };
}

/** The confinement in a few words, for approval requests. */
export function confinementPhrase(c: Confinement | undefined = networkConfinement()): string {
  const net = c.network === 'namespace' ? 'no network but loopback (network namespace)' : 'Node processes refused any host but loopback';
  return `no secrets in its environment, a temporary HOME, ${net}`;
}

export interface ConfinedCommand {
  command: string;
  args: string[];
  /** the variables to hand to childEnv's `set`: the caller's, with the guard added to NODE_OPTIONS where it is the confinement */
  set: Record<string, string | undefined>;
}

/** `command args` as it must be started to be confined; `set` are the variables the caller sets for it. */
export function confined(command: string, args: string[], set: Record<string, string | undefined>): ConfinedCommand {
  const ns = probeOnce().namespace;
  if (ns) return { command: ns.unshare, args: ['-rn', '--', '/bin/sh', '-c', LOOPBACK_UP, ns.ip, command, ...args], set };
  const guard = `--require ${quoted(assetFile('amtp.char-nonet.cjs'))}`;
  return { command, args, set: { ...set, NODE_OPTIONS: set.NODE_OPTIONS ? `${guard} ${set.NODE_OPTIONS}` : guard } };
}

/** A path as NODE_OPTIONS reads one: in double quotes, with `"` and `\` escaped. */
export function quoted(p: string): string {
  return `"${p.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

/** Tests only: forget the probe, so AMTP_NO_NETNS is read again. */
export function forgetConfinementProbe(): void {
  probed = undefined;
}
