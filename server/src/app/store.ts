// Which run store a front door uses: the lowdb files under .amtp/ (the default), or the Postgres
// database a `--store postgres://…` flag, AMTP_STORE or the machine setting amtp.store names.
// Connections opened here are closed by closeServices() when the command or server ends.
import { UsageError } from '../core/errors';
import { LowdbStore } from '../store/lowdb';
import { PostgresStore } from '../store/postgres';
import type { RunStore } from '../store/types';

const open = new Set<{ close(): Promise<void> }>();

/** The store URL in force: the flag (or setting), else AMTP_STORE; undefined means the lowdb files. */
export function storeUrl(given: string | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const url = (given ?? env.AMTP_STORE ?? '').trim();
  return url === '' || url === 'lowdb' ? undefined : url;
}

export function openRunStore(workspace: string, url: string | undefined): RunStore {
  if (!url) return new LowdbStore(workspace);
  if (!/^postgres(ql)?:/i.test(url)) throw new UsageError('the store must be "lowdb" or a postgres://USER@HOST:PORT/DATABASE URL');
  return track(new PostgresStore(workspace, url));
}

/** Registers a connection-holding service, so closeServices() ends it. */
export function track<T extends { close(): Promise<void> }>(service: T): T {
  open.add(service);
  return service;
}

/** Closes every store, cache and queue connection opened through this module; errors are ignored. */
export async function closeServices(): Promise<void> {
  const all = [...open];
  open.clear();
  await Promise.all(all.map((s) => s.close().catch(() => undefined)));
}
