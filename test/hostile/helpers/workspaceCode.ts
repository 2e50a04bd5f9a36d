// Helpers for the attacks that run code through AMTP's child processes (gitCode.test.ts,
// childProcesses.test.ts): a git repository, a script that leaves a mark when something runs it,
// and TCP listeners that count who reached them.
import { execFileSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

export const IDENTITY = {
  GIT_AUTHOR_NAME: 'Person',
  GIT_AUTHOR_EMAIL: 'person@example.com',
  GIT_COMMITTER_NAME: 'Person',
  GIT_COMMITTER_EMAIL: 'person@example.com',
};

export function sh(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...IDENTITY } }).trim();
}

/** `ws` as a git repository with one commit of everything in it. */
export function commitAll(ws: string): void {
  sh(ws, 'init', '-q', '-b', 'main');
  sh(ws, 'add', '-A');
  sh(ws, 'commit', '-q', '-m', 'initial');
}

/**
 * An executable script that appends one line per start to `marker`: how it was called and whether
 * the API key was in its environment. Whatever starts it ran code the repository controls.
 */
export async function markScript(dir: string, name: string): Promise<{ script: string; marker: string }> {
  const script = path.join(dir, name);
  const marker = path.join(dir, `${name}.fired`);
  await fsp.writeFile(script, `#!/bin/sh\necho "$0 $* key=\${OPENAI_API_KEY:-none}" >> '${marker}'\nexit 0\n`, {
    mode: 0o755,
  });
  return { script, marker };
}

/** The lines the script wrote, or [] when nothing ever started it. */
export async function marks(marker: string): Promise<string[]> {
  const text = await fsp.readFile(marker, 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean);
}

export interface Listener {
  port: number;
  /** connections accepted */
  connections: number;
  /** everything each connection sent */
  received: string[];
  close(): Promise<void>;
}

/** A TCP listener on `host` that counts connections and keeps what they send. */
export async function listen(host: string): Promise<Listener> {
  const sockets = new Set<net.Socket>();
  const l: Listener = { port: 0, connections: 0, received: [], close: async () => undefined };
  const server = net.createServer((s) => {
    l.connections++;
    sockets.add(s);
    const i = l.received.push('') - 1;
    s.on('data', (d) => (l.received[i] += d.toString('utf8')));
    // An HTTP client waits for a reply: give it one, so it ends.
    s.on('data', () => s.end('HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n'));
    s.on('close', () => sockets.delete(s));
    s.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  l.port = (server.address() as net.AddressInfo).port;
  l.close = () =>
    new Promise((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return l;
}

/**
 * An IPv4 address of this machine that is not loopback: a connection to it stays on the machine, but
 * a guard or a namespace that allows loopback only must refuse it as it would any other host. A
 * machine with none (a container without network) gets a documentation address (RFC 5737) that no
 * listener answers; the refusal's error code still tells the guard from the namespace.
 */
export function farAddress(): { host: string; ours: boolean } {
  const all = Object.values(os.networkInterfaces()).flatMap((a) => a ?? []);
  const v4 = all.find((a) => a.family === 'IPv4' && !a.internal);
  return v4 ? { host: v4.address, ours: true } : { host: '192.0.2.1', ours: false };
}
