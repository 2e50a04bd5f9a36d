// Valkey or Redis (`--cache redis://…`, and the `--queue` server): a connection, the shared 429/5xx
// regime and the shared MCP response cache. Nothing here holds a handoff: losing every key (a flush,
// a restart) costs a cache miss or an early retry, never a run's state. Key names: docs/scale.md.
// ioredis is imported only when a Redis URL is given.
import { createHash } from 'node:crypto';
import * as os from 'node:os';
import type { Redis, RedisOptions } from 'ioredis';
import { ServiceUnavailableError, UsageError, errorMessage } from '../core/errors';
import type { SharedToolCache } from '../mcp/cache';

/** Every key AMTP writes starts with this (BullMQ's keys too: `amtp:q:`). */
export const KEY_PREFIX = 'amtp:v1:';

const hash = (text: string) => createHash('sha256').update(text).digest('hex');
const short = (text: string) => hash(text).slice(0, 16);

export function parseRedisUrl(url: string): URL {
  let u: URL;
  try {
    u = new URL(url.replace(/^valkey(s?):/i, 'redis$1:'));
  } catch {
    throw new UsageError(
      `a cache or queue must be a redis://HOST:PORT (or valkey://) URL (got ${JSON.stringify(url.replace(/:[^:@/]*@/, ':***@'))})`,
    );
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:')
    throw new UsageError(`a cache or queue URL must start with redis://, rediss:// or valkey:// (got ${u.protocol}//…)`);
  return u;
}

function describeRedis(u: URL): string {
  return `${u.protocol}//${u.hostname}:${u.port || 6379}`;
}

/**
 * A connected client, or a clear error within seconds when the server is not there. Once connected
 * it reconnects by itself (a restarted server); while it is away, commands fail at once instead of
 * queueing (`enableOfflineQueue: false`), which the cache and the limits read as "nothing shared".
 */
export async function connectRedis(url: string, opts: { forQueue?: boolean } = {}): Promise<Redis> {
  const u = parseRedisUrl(url);
  const { Redis: Client } = await import('ioredis');
  const client = new Client({ ...redisOptions(u, opts), lazyConnect: true });
  client.on('error', () => undefined); // reconnects are retried; errors reach the callers of commands
  try {
    await client.connect();
    await client.ping();
  } catch (e) {
    client.disconnect();
    throw new ServiceUnavailableError(`cannot reach Redis at ${describeRedis(u)}: ${errorMessage(e)}`, { cause: e });
  }
  return client;
}

/** The connection options of a URL (BullMQ opens its blocking connections with them). */
export function redisOptions(u: URL, opts: { forQueue?: boolean } = {}): RedisOptions {
  return {
    host: u.hostname,
    port: Number(u.port || 6379),
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(u.pathname.length > 1 ? { db: Number(u.pathname.slice(1)) || 0 } : {}),
    ...(u.protocol === 'rediss:' ? { tls: {} } : {}),
    connectTimeout: 3000,
    // BullMQ's connections must wait for the server indefinitely; the cache's must not.
    maxRetriesPerRequest: opts.forQueue ? null : 1,
    enableOfflineQueue: !!opts.forQueue,
    retryStrategy: (n: number) => Math.min(200 * n, 2000),
  };
}

/** A hold on one endpoint and model, shared by every process that uses the same Redis. */
export interface SharedRateLimit {
  hold(ms: number): Promise<void>;
  remainingMs(): Promise<number>;
}

// The hold never shortens: a second 429 asking for less time leaves the longer wait in place.
const HOLD = `local left = redis.call('PTTL', KEYS[1])
if left < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], '1', 'PX', ARGV[1]) end
return left`;

/**
 * The 429/5xx regime across processes: a Retry-After seen by any process pauses every process for
 * that endpoint and model until the time it names. The wait is the key's time to live, counted by
 * the Redis server's clock, so the machines' clocks need not agree.
 */
export function sharedRateLimit(client: Redis, endpoint: string, model: string): SharedRateLimit {
  const key = `${KEY_PREFIX}limit:${short(endpoint)}:${model}`;
  return {
    async hold(ms) {
      if (ms > 0) await client.eval(HOLD, 1, key, String(Math.ceil(ms)));
    },
    async remainingMs() {
      return Math.max(0, await client.pttl(key));
    },
  };
}

/** MCP tool results of one workspace on this machine, by tool, arguments and content fingerprint. */
export function sharedToolCache(client: Redis, workspaceRealPath: string, ttlSeconds = 24 * 3600): SharedToolCache {
  const ns = `${KEY_PREFIX}mcp:${short(`${os.hostname()}\n${workspaceRealPath}`)}:`;
  return {
    async get(key) {
      return (await client.get(ns + hash(key))) ?? undefined;
    },
    async set(key, json) {
      await client.set(ns + hash(key), json, 'EX', ttlSeconds);
    },
  };
}
