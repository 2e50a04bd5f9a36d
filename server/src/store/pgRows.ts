// The query tables of a run (activities, batches, approvals, audit, events), kept in step with the
// run record in the same transaction as each save. Only what changed since the record this process
// saved last is written, so a save costs what it changed, not the size of the run.
import type { PoolClient } from 'pg';
import type { RunRecord } from '../core/run';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * A value as JSONB text. JSONB cannot hold U+0000: it becomes U+FFFD there (an escaped backslash
 * before "u0000" is text, not the character, and stays).
 */
export function jsonb(v: unknown): string {
  return JSON.stringify(v).replace(/(?<!\\)((?:\\\\)*)\\u0000/g, '$1\\ufffd');
}

export async function writeRunRows(c: PoolClient, next: RunRecord, prev: RunRecord | undefined): Promise<void> {
  await activityRows(c, next, prev);
  await approvalRows(c, next, prev);
  // Audit rows are only ever appended.
  const from = prev?.audit.length ?? 0;
  for (let seq = from; seq < next.audit.length; seq++) {
    const a = next.audit[seq];
    await c.query(
      `INSERT INTO amtp.audit (run_id, seq, at, tool, risk, outcome, record) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (run_id, seq) DO UPDATE SET record = EXCLUDED.record`,
      [next.id, seq, a.at, a.tool, a.risk, a.outcome, jsonb(a)],
    );
  }
  if (!prev || prev.status !== next.status || prev.stage !== next.stage)
    await c.query(
      `INSERT INTO amtp.events (run_id, version, at, status, stage, reason) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (run_id, version) DO NOTHING`,
      [next.id, next.version, next.updatedAt, next.status, next.stage, next.reason ?? null],
    );
}

async function activityRows(c: PoolClient, next: RunRecord, prev: RunRecord | undefined): Promise<void> {
  for (const a of next.activities) {
    const { batches, ...activity } = a;
    const before = prev?.activities.find((x) => x.agent === a.agent);
    const { batches: oldBatches, ...oldActivity } = before ?? { batches: undefined };
    if (!before || !same(activity, oldActivity))
      await c.query(
        `INSERT INTO amtp.activities (run_id, agent, status, attempts, artifact_id, model, record) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (run_id, agent) DO UPDATE SET status = EXCLUDED.status, attempts = EXCLUDED.attempts,
           artifact_id = EXCLUDED.artifact_id, model = EXCLUDED.model, record = EXCLUDED.record`,
        [next.id, a.agent, a.status, a.attempts, a.artifactId ?? null, a.model ?? null, jsonb(activity)],
      );
    for (const b of batches ?? []) {
      const old = oldBatches?.find((x) => x.index === b.index);
      if (old && same(old, b)) continue;
      await c.query(
        `INSERT INTO amtp.batches (run_id, agent, batch_index, batch_key, status, attempts, artifact_id, parent, record)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (run_id, agent, batch_index) DO UPDATE SET batch_key = EXCLUDED.batch_key, status = EXCLUDED.status,
           attempts = EXCLUDED.attempts, artifact_id = EXCLUDED.artifact_id, parent = EXCLUDED.parent, record = EXCLUDED.record`,
        [next.id, a.agent, b.index, b.key, b.status, b.attempts, b.artifactId ?? null, b.parent ?? null, jsonb(b)],
      );
    }
  }
}

async function approvalRows(c: PoolClient, next: RunRecord, prev: RunRecord | undefined): Promise<void> {
  for (const a of next.approvals) {
    const old = prev?.approvals.find((x) => x.id === a.id);
    if (old && same(old, a)) continue;
    await c.query(
      `INSERT INTO amtp.approvals (run_id, id, tool, risk, decision, record) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (run_id, id) DO UPDATE SET tool = EXCLUDED.tool, risk = EXCLUDED.risk, decision = EXCLUDED.decision, record = EXCLUDED.record`,
      [next.id, a.id, a.tool, a.risk, a.decision, jsonb(a)],
    );
  }
}
