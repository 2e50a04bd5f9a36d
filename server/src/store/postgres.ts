// The Postgres store (`--store postgres://…`): the same RunStore as the lowdb files, for a team's
// shared history of runs, approvals and artifacts, and for workers on other machines. Run records
// are versioned rows; artifacts are content-addressed rows written once; every operation is
// idempotent, so a dropped connection is replaced and the operation simply run again.
import { realpathSync } from 'node:fs';
import * as os from 'node:os';
import type { Pool, PoolClient } from 'pg';
import type { ArtifactKind } from '../core/agents';
import type { RunRecord } from '../core/run';
import { BaseRunStore, staleRunMessage } from './base';
import { isOwnRun } from './ownership';
import { describeUrl, inTransaction, openPool, parsePostgresUrl, withConnection } from './pgConnect';
import { jsonb, writeRunRows } from './pgRows';
import { migrate } from './pgSchema';
import { runRecordProblem, type IgnoredRuns } from './runRecords';
import { safeId } from './types';

/** How long a run lock lives without being renewed: a holder that died frees it after this. */
const LOCK_TTL_S = 60;

export class PostgresStore extends BaseRunStore {
  readonly location: string;
  private pool?: Promise<Pool>;
  private ready?: Promise<void>;
  /** the record this process saved last, per run: a save writes only the query rows that changed */
  private readonly saved = new Map<string, RunRecord>();
  private readonly url: URL;

  constructor(workspace: string, url: string) {
    super(workspace);
    this.url = parsePostgresUrl(url);
    this.location = describeUrl(this.url);
  }

  /** The workspace as the runs table keys it: its real path. */
  private get workspaceKey(): string {
    try {
      return realpathSync(this.workspace);
    } catch {
      return this.workspace;
    }
  }

  /** Runs `op` on a connection, the schema migrated first (once per process). */
  async query<T>(op: (c: PoolClient) => Promise<T>): Promise<T> {
    this.pool ??= openPool(this.url);
    const pool = await this.pool;
    // The first connection fails fast (a wrong URL, a server that is not there); later ones ride out a restart.
    this.ready ??= withConnection(pool, this.location, async (c) => void (await migrate(c)), 5000).catch((e) => {
      this.ready = undefined; // a later call tries again
      throw e;
    });
    await this.ready;
    return withConnection(pool, this.location, op);
  }

  async init(): Promise<void> {
    await this.query(async () => undefined);
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    this.ready = undefined;
    if (pool) await (await pool).end();
  }

  protected async writeArtifactText(runId: string, id: string, kind: ArtifactKind, text: string): Promise<void> {
    const doc = JSON.parse(text) as { content: unknown; meta: unknown };
    await this.query((c) =>
      c.query(
        'INSERT INTO amtp.artifacts (id, run_id, kind, text, content, meta) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING',
        [safeId(id), safeId(runId), kind, text, jsonb(doc.content), jsonb(doc.meta)],
      ),
    );
  }

  protected async readArtifactText(runId: string, id: string): Promise<string | undefined> {
    const r = await this.query((c) =>
      c.query<{ text: string }>('SELECT text FROM amtp.artifacts WHERE id = $1 AND run_id = $2', [id, runId]),
    );
    return r.rows[0]?.text;
  }

  protected async artifactIds(runId: string): Promise<string[]> {
    const r = await this.query((c) =>
      c.query<{ id: string }>('SELECT id FROM amtp.artifacts WHERE run_id = $1 AND prompt_hash IS NOT NULL ORDER BY id', [runId]),
    );
    return r.rows.map((x) => x.id);
  }

  protected artifactPlace(runId: string): string {
    return `${this.location} (run ${runId})`;
  }

  async getRun(id: string): Promise<RunRecord | undefined> {
    const r = await this.query((c) => c.query<{ record: RunRecord }>('SELECT record FROM amtp.runs WHERE id = $1', [safeId(id)]));
    return r.rows[0]?.record;
  }

  /**
   * Optimistic versioning in one statement: the row is written only when it is still at the version
   * the caller read, or already is exactly this write (the same write sent again after a dropped
   * connection, whose first try did commit). Exactly: the whole record's text, not its `updatedAt`,
   * which a stale writer in the same millisecond shares (the contract test failed so under load).
   */
  async saveRun(run: RunRecord): Promise<RunRecord> {
    const next: RunRecord = { ...run, version: run.version + 1, updatedAt: new Date().toISOString() };
    const written = await this.query((c) =>
      inTransaction(c, async () => {
        const r = await c.query<{ version: number }>(
          `INSERT INTO amtp.runs AS r (id, workspace, version, status, stage, record, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
           ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version, status = EXCLUDED.status, stage = EXCLUDED.stage,
             record = EXCLUDED.record, updated_at = EXCLUDED.updated_at
           WHERE r.version = $9 OR (r.version = EXCLUDED.version AND r.record::text = EXCLUDED.record::text)
           RETURNING version`,
          [
            next.id,
            this.workspaceKey,
            next.version,
            next.status,
            next.stage,
            JSON.stringify(next),
            next.createdAt,
            next.updatedAt,
            run.version,
          ],
        );
        if (!r.rowCount) return false;
        await writeRunRows(c, next, this.saved.get(next.id));
        return true;
      }),
    );
    if (!written) {
      const stored = await this.getRun(run.id);
      throw new Error(staleRunMessage(run.id, stored?.version ?? -1, run.version));
    }
    this.saved.set(next.id, next);
    return next;
  }

  async scanRuns(): Promise<{ runs: RunRecord[]; ignored: IgnoredRuns }> {
    const r = await this.query((c) =>
      c.query<{ id: string; record: unknown }>('SELECT id, record FROM amtp.runs WHERE workspace = $1 ORDER BY created_at, id', [
        this.workspaceKey,
      ]),
    );
    const runs: RunRecord[] = [];
    const ignored: IgnoredRuns = { foreign: [], unreadable: [] };
    for (const row of r.rows) {
      const problem = runRecordProblem(row.record);
      if (problem) ignored.unreadable.push({ file: row.id, reason: problem });
      else if (!isOwnRun(row.record as RunRecord, this.workspace)) ignored.foreign.push(row.id);
      else runs.push(row.record as RunRecord);
    }
    return { runs, ignored };
  }

  /**
   * One process per run: a lock row renewed while the run goes on. A lock whose holder stopped
   * renewing it (the process died) expires; one held by a dead process on this host is taken at once.
   */
  async lockRun(id: string): Promise<() => Promise<void>> {
    const holder = `${os.hostname()}:${process.pid}:${Math.random().toString(36).slice(2)}`;
    for (let i = 0; i < 2; i++) {
      const got = await this.query((c) =>
        c.query<{ host: string; pid: number }>(
          `INSERT INTO amtp.locks AS l (run_id, holder, host, pid, expires_at) VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))
           ON CONFLICT (run_id) DO UPDATE SET holder = EXCLUDED.holder, host = EXCLUDED.host, pid = EXCLUDED.pid, expires_at = EXCLUDED.expires_at
           WHERE l.expires_at < now()
           RETURNING host, pid`,
          [safeId(id), holder, os.hostname(), process.pid, LOCK_TTL_S],
        ),
      );
      if (got.rowCount) return this.holdLock(id, holder);
      const held = await this.query((c) =>
        c.query<{ host: string; pid: number }>('SELECT host, pid FROM amtp.locks WHERE run_id = $1', [id]),
      );
      const owner = held.rows[0];
      if (owner && (owner.host !== os.hostname() || owner.pid === process.pid || isAlive(owner.pid)))
        throw new Error(`run ${id} is in use by process ${owner.pid} on ${owner.host}`);
      await this.query((c) =>
        c.query('DELETE FROM amtp.locks WHERE run_id = $1 AND host = $2 AND pid = $3', [id, owner?.host, owner?.pid]),
      );
    }
    throw new Error(`could not lock run ${id}`);
  }

  private holdLock(id: string, holder: string): () => Promise<void> {
    const renew = setInterval(
      () =>
        void this.query((c) =>
          c.query('UPDATE amtp.locks SET expires_at = now() + make_interval(secs => $3) WHERE run_id = $1 AND holder = $2', [
            id,
            holder,
            LOCK_TTL_S,
          ]),
        ).catch(() => undefined),
      (LOCK_TTL_S * 1000) / 3,
    );
    renew.unref();
    return async () => {
      clearInterval(renew);
      await this.query((c) => c.query('DELETE FROM amtp.locks WHERE run_id = $1 AND holder = $2', [id, holder]));
    };
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
