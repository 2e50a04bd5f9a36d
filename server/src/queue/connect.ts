// The BullMQ queue a run's model calls go through: one queue per workspace commit, so a worker
// only ever sees jobs of the commit it has checked out. bullmq is imported only with `--queue`.
import type { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { version } from '../../../package.json';
import { connectRedis, parseRedisUrl, redisOptions } from '../store/redis';

/** Every BullMQ key: amtp:q:<queue name>:… (docs/scale.md). */
export const QUEUE_PREFIX = 'amtp:q';

/** What a worker must share with the coordinator besides the commit: the version of AMTP. */
export const AMTP_VERSION = version;

export function queueName(commit: string): string {
  if (!/^[0-9a-f]{40,64}$/.test(commit)) throw new Error(`not a commit id: ${JSON.stringify(commit)}`);
  return `commit-${commit}`;
}

/** How long a worker's hold on a job lasts unrenewed: a worker killed mid-job frees it after this (AMTP_QUEUE_LOCK_MS, for tests). */
export function lockMs(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.AMTP_QUEUE_LOCK_MS);
  return Number.isInteger(n) && n >= 500 ? n : 30_000;
}

/** The data of one job: which attempt of which request, and what the worker must agree with. */
export interface JobData {
  runId: string;
  promptHash: string;
  attempt: number;
  commit: string;
  amtp: string;
  provider: string;
}

export interface QueueLink {
  queue: Queue<JobData>;
  events: QueueEvents;
  redis: Redis;
  commit: string;
  close(): Promise<void>;
}

export async function openQueue(url: string, commit: string): Promise<QueueLink> {
  const u = parseRedisUrl(url);
  const redis = await connectRedis(url, { forQueue: true });
  const { Queue, QueueEvents } = await import('bullmq');
  const name = queueName(commit);
  const queue = new Queue<JobData>(name, { connection: redis, prefix: QUEUE_PREFIX });
  const events = new QueueEvents(name, { connection: redisOptions(u, { forQueue: true }), prefix: QUEUE_PREFIX });
  queue.on('error', () => undefined);
  events.on('error', () => undefined);
  await Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);
  return {
    queue,
    events,
    redis,
    commit,
    async close() {
      await Promise.allSettled([events.close(), queue.close()]);
      redis.disconnect();
    },
  };
}
