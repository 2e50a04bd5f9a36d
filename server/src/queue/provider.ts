// The coordinator's side of `--queue`: an LlmProvider whose every session sends its one request to
// the workers. The request goes into the store's ledger, a job naming it (and the commit) onto the
// queue, and the answer comes back from the ledger. Everything around the call — the boundary,
// the artifacts, the run record, the retry policy, a recording — stays in this process, so a
// distributed run's artifacts, files and recording are those of a single-process run.
import { canonicalJson, sha256 } from '../core/canonical';
import { CancelledError } from '../core/errors';
import type { AgentId } from '../core/agents';
import { TransientLlmError } from '../llm/errors';
import type { ChatReply, ChatRequest, LlmProvider, LlmSession } from '../llm/provider';
import type { PostgresStore } from '../store/postgres';
import { AMTP_VERSION, type JobData, type QueueLink } from './connect';
import { raisedError } from './errors';
import { getAnswer, putRequest, type Answer, type AttemptKey } from './ledger';

/** How often a waiting call looks at the ledger and the job besides the queue's completion events. */
const POLL_MS = 1000;

/** The run id of an envelope: its top-level run_id, the last one in canonical JSON (keys sorted, "payload" before it). */
export function runIdOf(envelope: string): string {
  const all = [...envelope.matchAll(/"run_id":"(r_[A-Za-z0-9_-]{1,76})"/g)];
  return all.length ? all[all.length - 1][1] : 'r_unknown';
}

export function jobIdOf(key: AttemptKey): string {
  return `${key.runId}.${key.promptHash.slice(0, 32)}.${key.attempt}`;
}

export class QueueProvider implements LlmProvider {
  private readonly waiting = new Map<string, () => void>();

  constructor(
    private readonly inner: LlmProvider,
    private readonly link: QueueLink,
    private readonly store: PostgresStore,
  ) {
    const wake = ({ jobId }: { jobId: string }) => this.waiting.get(jobId)?.();
    link.events.on('completed', wake);
    link.events.on('failed', wake);
  }

  /** The provider the workers run: artifacts record its name, as in a single-process run. */
  get name(): string {
    return this.inner.name;
  }

  openSession(agent: AgentId): LlmSession {
    return { complete: (req) => this.call(agent, req) };
  }

  private async call(agent: AgentId, req: ChatRequest): Promise<ChatReply> {
    const { signal, ...request } = req;
    const key: AttemptKey = {
      runId: runIdOf(req.messages[1].content),
      promptHash: sha256(canonicalJson(req.messages)),
      attempt: req.attempt ?? 1,
    };
    await putRequest(this.store, key, this.inner.name, { ...request, agent });
    // An answer already in the ledger (a resumed run, a job answered before a restart) is taken as it is.
    const answer = (await getAnswer(this.store, key)) ?? (await this.dispatch(key, signal));
    if ('error' in answer) throw raisedError(answer.error);
    return answer.reply;
  }

  private async dispatch(key: AttemptKey, signal: AbortSignal | undefined): Promise<Answer> {
    const jobId = jobIdOf(key);
    await this.add(key, jobId);
    for (;;) {
      await this.wait(jobId, signal);
      const answer = await getAnswer(this.store, key);
      if (answer) return answer;
      const job = await this.link.queue.getJob(jobId);
      // Gone with no answer: Redis lost it (flushed, restarted empty). The ledger still has the request.
      if (!job) await this.add(key, jobId);
      else if ((await job.getState()) === 'failed')
        throw new TransientLlmError(`the queue's workers gave up on job ${jobId}: ${job.failedReason ?? 'no reason given'}`);
    }
  }

  private async add(key: AttemptKey, jobId: string): Promise<void> {
    const data: JobData = { ...key, commit: this.link.commit, amtp: AMTP_VERSION, provider: this.inner.name };
    await this.link.queue.add('model-call', data, {
      jobId,
      // Retries here are for the workers' own failures (a refused job, a store that was away); the
      // model's errors come back as answers and meet the run's retry policy.
      attempts: 5,
      backoff: { type: 'exponential', delay: 1000 },
      removeOnComplete: true,
      removeOnFail: { count: 1000 },
    });
  }

  /** Until the job's completion event, the poll interval, or the run's cancellation. */
  private wait(jobId: string, signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(new CancelledError());
      const cleanup = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', abort);
        this.waiting.delete(jobId);
      };
      const done = () => {
        cleanup();
        resolve();
      };
      const abort = () => {
        cleanup();
        void this.link.queue.remove(jobId).catch(() => undefined); // a waiting job is dropped; a running one finishes unread
        reject(new CancelledError());
      };
      const timer = setTimeout(done, POLL_MS);
      this.waiting.set(jobId, done);
      signal?.addEventListener('abort', abort, { once: true });
    });
  }
}
