// The run store's one interface. lowdb files under .amtp/ (store/lowdb.ts) are the default; a
// Postgres database (store/postgres.ts, `--store postgres://…`) serves a team or a fleet of workers.
// Both follow the same boundary protocol (store/base.ts): validate, persist, load by id, re-validate.
import type { AgentId, ArtifactKind } from '../core/agents';
import type { Artifact, ArtifactMeta, RunRecord } from '../core/run';
import type { AgentResults } from '../contracts/agentSchemas';
import type { IgnoredRuns } from './runRecords';

export interface RunStore {
  /** the workspace whose runs this store holds (run ownership is checked against it) */
  readonly workspace: string;
  /** where the store is, for messages: the .amtp folder, or the database URL without its password */
  readonly location: string;
  /** creates what the store needs (folders; tables by the migrations); idempotent */
  init(): Promise<void>;
  /** Validates the artifact, then writes it once: a second write of the same artifact is a no-op. */
  putArtifact(runId: string, kind: ArtifactKind, content: object, meta: ArtifactMeta): Promise<Artifact>;
  getArtifact(runId: string, id: string): Promise<Artifact>;
  /** The committed output of `agent` in `run`, with its contract's type. */
  agentOutput<A extends AgentId>(run: RunRecord, agent: A): Promise<AgentResults[A]>;
  /** The artifact plus the canonical text of its content (for splicing into an envelope). */
  loadArtifact(runId: string, id: string): Promise<{ artifact: Artifact; contentText: string }>;
  /** The artifact's canonical text, integrity-checked: the hash of the bytes must be the id. */
  artifactRaw(runId: string, id: string): Promise<string>;
  /** Every session artifact of the run, by kind and prompt hash (sessionKey), for adoption on resume. */
  sessionArtifacts(runId: string): Promise<Map<string, Artifact>>;
  findUncommittedArtifact(runId: string, kind: ArtifactKind, promptHash: string): Promise<Artifact | undefined>;
  getRun(id: string): Promise<RunRecord | undefined>;
  /** A run this person created here, or an error that says why it is not one AMTP will act on. */
  getOwnRun(id: string): Promise<RunRecord>;
  /** Optimistic versioning: a record whose version moved on meanwhile is refused, never merged. */
  saveRun(run: RunRecord): Promise<RunRecord>;
  /** This person's runs here, oldest first. */
  listRuns(): Promise<RunRecord[]>;
  /** This person's runs here, and the records left aside (another person's, unreadable). */
  scanRuns(): Promise<{ runs: RunRecord[]; ignored: IgnoredRuns }>;
  /** A run is worked on by one process at a time; the returned function releases it. */
  lockRun(id: string): Promise<() => Promise<void>>;
  /** Releases connections; the store is not used after. */
  close(): Promise<void>;
}

/** The key of a session artifact among a run's: its kind and the hash of the prompt that made it. */
export function sessionKey(kind: ArtifactKind, promptHash: string): string {
  return `${kind}\n${promptHash}`;
}

/** Run and artifact ids as both stores accept them (they become file names and keys). */
export function safeId(id: string): string {
  if (!/^[A-Za-z0-9_-]{1,80}$/.test(id)) throw new Error(`invalid id: ${JSON.stringify(id)}`);
  return id;
}
