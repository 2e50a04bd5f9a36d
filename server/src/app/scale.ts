// Past one process: the store, the shared cache and limits, and the queue a run uses, from the
// person's flags or machine settings (`--store`, `--cache`, `--queue`; AMTP_STORE, AMTP_CACHE,
// AMTP_QUEUE; amtp.store, amtp.cache, amtp.queue). With none of them nothing changes: the lowdb
// files, this process alone, no service. docs/scale.md.
import { realpathSync } from 'node:fs';
import { crawlWorkspace } from '../agents/crawler/staticMap';
import { UsageError } from '../core/errors';
import { repoOf } from '../git/commit';
import type { LlmProvider } from '../llm/provider';
import { ResponseCache } from '../mcp/cache';
import type { PipelineDeps } from '../pipeline/deps';
import { PostgresStore } from '../store/postgres';
import { connectRedis, sharedRateLimit, sharedToolCache, type SharedRateLimit } from '../store/redis';
import type { RunStore } from '../store/types';
import { openQueue } from '../queue/connect';
import { QueueProvider } from '../queue/provider';
import { openRunStore, storeUrl, track } from './store';
import type { ProviderSettings } from './providers';

export interface ScaleSettings {
  store?: string;
  cache?: string;
  queue?: string;
}

const envOr = (given: string | undefined, name: string, env: NodeJS.ProcessEnv) => {
  const v = (given ?? env[name] ?? '').trim();
  return v === '' ? undefined : v;
};

/** The settings in force: each flag (or machine setting), else its environment variable. */
export function scaleSettings(given: ScaleSettings, env: NodeJS.ProcessEnv = process.env): ScaleSettings {
  return { store: storeUrl(given.store, env), cache: envOr(given.cache, 'AMTP_CACHE', env), queue: envOr(given.queue, 'AMTP_QUEUE', env) };
}

/**
 * What a recording, a log line or a child must never hold: the password of each service URL in
 * force (as written and decoded). Messages show a URL as host, port and database only.
 */
export function scaleSecrets(given: ScaleSettings, env: NodeJS.ProcessEnv = process.env): string[] {
  const s = scaleSettings(given, env);
  return [s.store, s.cache, s.queue].flatMap((url) => {
    const m = url ? /^[a-z][a-z0-9+.-]*:\/\/[^/@]*?:([^@/]+)@/i.exec(url) : null;
    if (!m) return [];
    let decoded = m[1];
    try {
      decoded = decodeURIComponent(m[1]);
    } catch {
      // kept as written
    }
    return [...new Set([m[1], decoded])];
  });
}

/** What a recording must never hold: the key, every header value, and the service URLs' passwords. */
export function recordingSecrets(apiKey: string | null | undefined, s: ScaleSettings & { headers?: Record<string, string> }): string[] {
  return [apiKey ?? '', ...Object.values(s.headers ?? {}), ...scaleSecrets(s)];
}

/** Where a provider's requests go, as the shared 429 hold names it: the same endpoint gives the same key on every machine. */
export function endpointOf(s: Pick<ProviderSettings, 'provider' | 'baseURL' | 'azureEndpoint'>): string {
  if (s.provider === 'azure') return `azure ${s.azureEndpoint ?? ''}`;
  if (s.provider === 'openai') return `openai ${(s.baseURL ?? 'https://api.openai.com/v1').replace(/\/+$/, '')}`;
  return s.provider;
}

/** The commit a queue's jobs name: the workspace's HEAD. A workspace that is no git checkout cannot use a queue. */
export async function workspaceCommit(ws: string): Promise<string> {
  const repo = await repoOf(ws);
  if ('cannot' in repo)
    throw new UsageError(`--queue needs the workspace to be a git checkout, because each job names its commit: ${repo.cannot}`);
  return repo.head;
}

/** The 429 hold shared through Redis (the cache's, else the queue's server), when either is given. */
export async function sharedLimits(s: ScaleSettings, endpoint: string): Promise<((model: string) => SharedRateLimit) | undefined> {
  const url = s.cache ?? s.queue;
  if (!url) return undefined;
  const redis = await connectRedis(url);
  track({ close: async () => redis.disconnect() });
  return (model) => sharedRateLimit(redis, endpoint, model);
}

/** A run's dependencies past one process: the store, the crawl's shared cache, the shared limits and the queue. */
export async function scaleDeps(
  ws: string,
  given: ScaleSettings,
  provider: LlmProvider,
  endpoint: string,
  opened?: RunStore,
): Promise<Pick<PipelineDeps, 'store' | 'provider'> & Partial<Pick<PipelineDeps, 'crawl' | 'sharedLimit'>>> {
  const s = scaleSettings(given);
  const store: RunStore = opened ?? openRunStore(ws, s.store);
  const out: Awaited<ReturnType<typeof scaleDeps>> = { store, provider };
  const limit = await sharedLimits(s, endpoint);
  if (limit) out.sharedLimit = limit;
  if (s.cache) {
    const redis = await connectRedis(s.cache);
    track({ close: async () => redis.disconnect() });
    const shared = sharedToolCache(redis, realpathSync(ws));
    out.crawl = async (w) => (await crawlWorkspace(w, { cache: new ResponseCache({ shared }) })).map;
  }
  if (s.queue) {
    if (!(store instanceof PostgresStore))
      throw new UsageError(
        '--queue needs a Postgres store (--store postgres://…): workers read the requests from it and write the answers to it',
      );
    await store.init();
    const link = track(await openQueue(s.queue, await workspaceCommit(ws)));
    out.provider = new QueueProvider(provider, link, store);
  }
  return out;
}
