// The queue's ledger in the Postgres store (table amtp.attempts): the coordinator writes each model
// request of an activity attempt, a worker its answer. The queue itself carries only the key, so a
// Redis flush or restart loses no request and no answer: the store of record holds both.
// Keyed and idempotent on (run, prompt hash, attempt): the first answer stays, a second is dropped.
import type { ChatRequest, ReplyUsage } from '../llm/provider';
import type { PostgresStore } from '../store/postgres';
import { jsonb } from '../store/pgRows';

export interface AttemptKey {
  runId: string;
  promptHash: string;
  attempt: number;
}

/** What a worker sends to the model: the request without the run's signal. */
export type StoredRequest = Omit<ChatRequest, 'signal'>;

/** A typed error as it crosses processes (queue/errors.ts turns it back into its class). */
export interface StoredError {
  kind: string;
  message: string;
  retryAfterMs?: number;
  maxOutputTokens?: number;
  excerpt?: string;
  usage?: ReplyUsage;
}

interface StoredReply {
  content: string;
  model: string;
  usage?: ReplyUsage;
}

export type Answer = { reply: StoredReply } | { error: StoredError };

export async function putRequest(store: PostgresStore, key: AttemptKey, provider: string, request: StoredRequest): Promise<void> {
  await store.query((c) =>
    c.query(
      `INSERT INTO amtp.attempts (run_id, prompt_hash, attempt, agent, provider, request) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (run_id, prompt_hash, attempt) DO NOTHING`,
      [key.runId, key.promptHash, key.attempt, request.agent, provider, jsonb(request)],
    ),
  );
}

export async function getRequest(store: PostgresStore, key: AttemptKey): Promise<{ provider: string; request: StoredRequest } | undefined> {
  const r = await store.query((c) =>
    c.query<{ provider: string; request: StoredRequest }>(
      'SELECT provider, request FROM amtp.attempts WHERE run_id = $1 AND prompt_hash = $2 AND attempt = $3',
      [key.runId, key.promptHash, key.attempt],
    ),
  );
  return r.rows[0];
}

export async function getAnswer(store: PostgresStore, key: AttemptKey): Promise<Answer | undefined> {
  const r = await store.query((c) =>
    c.query<{ reply: StoredReply | null; error: StoredError | null }>(
      'SELECT reply, error FROM amtp.attempts WHERE run_id = $1 AND prompt_hash = $2 AND attempt = $3',
      [key.runId, key.promptHash, key.attempt],
    ),
  );
  const row = r.rows[0];
  if (row?.reply) return { reply: row.reply };
  if (row?.error) return { error: row.error };
  return undefined;
}

/** Records the answer unless one is already there (a re-delivered job); true when this one was kept. */
export async function putAnswer(store: PostgresStore, key: AttemptKey, answer: Answer, worker: string): Promise<boolean> {
  const r = await store.query((c) =>
    c.query(
      `UPDATE amtp.attempts SET reply = $4, error = $5, worker = $6, answered_at = now()
       WHERE run_id = $1 AND prompt_hash = $2 AND attempt = $3 AND reply IS NULL AND error IS NULL`,
      [
        key.runId,
        key.promptHash,
        key.attempt,
        'reply' in answer ? JSON.stringify(answer.reply) : null,
        'error' in answer ? jsonb(answer.error) : null,
        worker,
      ],
    ),
  );
  return (r.rowCount ?? 0) > 0;
}
