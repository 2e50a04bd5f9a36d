// `amtp worker`: takes model-call jobs of its workspace's commit from the queue and answers them
// into the store's ledger. One job is one attempt of one activity, a pure function of the request
// the ledger holds: it returns the reply or a typed error, and the coordinator does the rest.
// A worker on another commit or another AMTP version refuses a job; the job goes back to the queue.
import * as os from 'node:os';
import type { Job, Worker } from 'bullmq';
import { AmtpError, CancelledError, errorMessage } from '../core/errors';
import { RateLimitError } from '../llm/errors';
import type { LlmProvider } from '../llm/provider';
import { RateGate } from '../pipeline/rateGate';
import { DEFAULT_BACKOFF, rateLimitHold, type BackoffPolicy } from '../pipeline/retry';
import type { PostgresStore } from '../store/postgres';
import type { SharedRateLimit } from '../store/redis';
import { redisOptions, parseRedisUrl } from '../store/redis';
import { AMTP_VERSION, QUEUE_PREFIX, lockMs, queueName, type JobData } from './connect';
import { JobRefused, storeError } from './errors';
import { getAnswer, getRequest, putAnswer, type Answer } from './ledger';

export interface WorkerOptions {
  queueUrl: string;
  store: PostgresStore;
  /** the commit the workspace is at now (asked again before each job: a checkout may move) */
  commit: () => Promise<string>;
  /** the provider a job names, set up from this machine's own settings and keys */
  providerFor: (name: string) => LlmProvider;
  /** the 429 hold shared with every process for this endpoint and a model */
  limitFor?: (model: string) => SharedRateLimit;
  concurrency: number;
  backoff?: Partial<BackoffPolicy>;
  log: (line: string) => void;
}

export interface RunningWorker {
  worker: Worker<JobData>;
  /** how many jobs this worker answered (a re-delivered job already answered is not counted) */
  answered(): number;
  /** resolves when the worker stopped by itself: its workspace moved to another commit */
  stoppedItself: Promise<string>;
  close(): Promise<void>;
}

export async function startWorker(o: WorkerOptions): Promise<RunningWorker> {
  const commit = await o.commit();
  const { Worker: BullWorker } = await import('bullmq');
  const name = `${os.hostname()}:${process.pid}`;
  let answered = 0;
  let stopSelf: (why: string) => void = () => undefined;
  const stoppedItself = new Promise<string>((resolve) => (stopSelf = resolve));
  const processor = async (job: Job<JobData>): Promise<string> => {
    const now = await o.commit();
    if (now !== commit) {
      // This worker listens on its old commit's queue: it takes no more jobs there.
      stopSelf(`the workspace moved from commit ${commit} to ${now}; start the worker again to serve ${now}`);
      void worker.close();
    }
    await refuseIfForeign(job.data, now, commit, o.log);
    const answer = await answerJob(job.data, o, name);
    if (answer === 'answered before') return answer;
    answered++;
    return 'error' in answer ? `error ${answer.error.kind}` : 'reply';
  };
  const lock = lockMs();
  const worker = new BullWorker<JobData>(queueName(commit), processor, {
    connection: redisOptions(parseRedisUrl(o.queueUrl), { forQueue: true }),
    prefix: QUEUE_PREFIX,
    concurrency: o.concurrency,
    lockDuration: lock,
    stalledInterval: lock,
    maxStalledCount: 3,
  });
  worker.on('error', (e) => o.log(`queue: ${errorMessage(e)}`));
  worker.on('failed', (job, e) => o.log(`job ${job?.id} not done here: ${errorMessage(e)}`));
  await worker.waitUntilReady();
  o.log(`worker ${name} listening for jobs of commit ${commit} (AMTP ${AMTP_VERSION}, ${o.concurrency} at a time)`);
  return { worker, answered: () => answered, stoppedItself, close: () => worker.close() };
}

async function refuseIfForeign(data: JobData, now: string, started: string, log: (l: string) => void): Promise<void> {
  if (data.amtp !== AMTP_VERSION) throw new JobRefused(`the job was made by AMTP ${data.amtp}; this worker is AMTP ${AMTP_VERSION}`);
  if (data.commit !== now || now !== started) {
    log(`the workspace is at commit ${now}, not ${data.commit}: refusing the job; restart the worker on the run's commit`);
    throw new JobRefused(`the job's commit is ${data.commit}; this worker's workspace is at ${now}`);
  }
}

/** One attempt: the request from the ledger to the model, the answer back into the ledger. */
async function answerJob(data: JobData, o: WorkerOptions, worker: string): Promise<Answer | 'answered before'> {
  const key = { runId: data.runId, promptHash: data.promptHash, attempt: data.attempt };
  if (await getAnswer(o.store, key)) return 'answered before'; // a re-delivered job: the first answer stands
  const stored = await getRequest(o.store, key);
  if (!stored)
    throw new Error(
      `job ${data.runId}/${data.promptHash.slice(0, 12)} has no request in ${o.store.location}: is this worker on the run's store?`,
    );
  const provider = o.providerFor(stored.provider);
  const gate = new RateGate(o.limitFor?.(stored.request.model));
  await gate.pass();
  let answer: Answer;
  try {
    const reply = await provider.openSession(stored.request.agent).complete({ ...stored.request });
    answer = { reply: { content: reply.content, model: reply.model, ...(reply.usage ? { usage: reply.usage } : {}) } };
  } catch (e) {
    if (e instanceof CancelledError || !(e instanceof AmtpError)) throw e; // not the model's answer: the job is retried
    // Every process sending to this endpoint and model waits, not only this one.
    if (e instanceof RateLimitError) gate.hold(rateLimitHold(e, { ...DEFAULT_BACKOFF, ...o.backoff }));
    answer = { error: storeError(e) };
  }
  await putAnswer(o.store, key, answer, worker);
  return answer;
}
