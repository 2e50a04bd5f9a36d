// A pool of connections to the Postgres store, and the one retry rule for a dropped connection.
// `pg` is imported only here and only when a postgres:// store is asked for, so the default run
// (lowdb) never loads it.
import type { Pool, PoolClient } from 'pg';
import { ServiceUnavailableError, UsageError, errorMessage } from '../core/errors';

/** Checks a store URL's form; the password is never shown (see `describeUrl`). */
export function parsePostgresUrl(url: string): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new UsageError(`the store must be "lowdb" or a postgres://USER@HOST:PORT/DATABASE URL (got ${JSON.stringify(redactUrl(url))})`);
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:')
    throw new UsageError(`the store URL must start with postgres:// or postgresql:// (got ${u.protocol}//…)`);
  if (!u.hostname) throw new UsageError('the store URL names no host (postgres://USER@HOST:PORT/DATABASE)');
  return u;
}

/** A URL as messages show it: any password replaced. */
function redactUrl(url: string): string {
  return url.replace(/\/\/([^:/@]*):[^@/]*@/, '//$1:***@');
}

/** host:port/database, for messages. */
export function describeUrl(u: URL): string {
  return `postgres://${u.hostname}:${u.port || 5432}${u.pathname}`;
}

export async function openPool(u: URL): Promise<Pool> {
  const pg = (await import('pg')).default;
  const pool = new pg.Pool({
    connectionString: u.href,
    max: 8,
    // A refused or silent server is an error within seconds, never a hang.
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: 10_000,
    application_name: 'amtp',
  });
  // An idle connection the server dropped (restart, pg_terminate_backend) is discarded by the pool;
  // without a listener its error event would end the process.
  pool.on('error', () => undefined);
  // The same for a connection in use (between two queries of one operation) when the server crashes:
  // the pool listens only to idle ones. The operation's next query fails, and withConnection retries.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

/** Connection-level failures: the server went away or dropped this connection; a new one may work. */
function isConnectionError(e: unknown): boolean {
  const code = (e as { code?: string }).code;
  if (code && /^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|57P01|57P02|57P03|08000|08003|08006|08001|08004)$/.test(code))
    return true;
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|terminating connection|Client has encountered a connection error|not queryable/i.test(
    errorMessage(e),
  );
}

/**
 * Runs `op` on a pooled connection; a dropped connection is replaced and `op` run again (every
 * operation of the store is idempotent), for up to `budgetMs`. Past that, or when the server cannot
 * be reached at all, a ServiceUnavailableError says where and why.
 */
export async function withConnection<T>(pool: Pool, where: string, op: (c: PoolClient) => Promise<T>, budgetMs = 15_000): Promise<T> {
  const end = Date.now() + budgetMs;
  for (let attempt = 1; ; attempt++) {
    let client: PoolClient | undefined;
    try {
      client = await pool.connect();
      const out = await op(client);
      client.release();
      return out;
    } catch (e) {
      client?.release(isConnectionError(e) ? (e as Error) : undefined);
      if (!isConnectionError(e)) throw e;
      if (Date.now() + 250 * attempt > end)
        throw new ServiceUnavailableError(`cannot reach the Postgres store at ${where}: ${errorMessage(e)}`, { cause: e });
      await new Promise((r) => setTimeout(r, Math.min(250 * attempt, 2000)));
    }
  }
}

/** One transaction on one connection; rolled back when `op` throws. */
export async function inTransaction<T>(c: PoolClient, op: () => Promise<T>): Promise<T> {
  await c.query('BEGIN');
  try {
    const out = await op();
    await c.query('COMMIT');
    return out;
  } catch (e) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
}
