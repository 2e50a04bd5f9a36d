// The boundary protocol every store follows, written once: an artifact is validated before it is
// persisted, stored as its RFC 8785 text under the hash of that text, and on load hash-checked and
// validated again. The stores (lowdb.ts, postgres.ts) only read and write the bytes.
import { canonicalJson, sha256 } from '../core/canonical';
import { ARTIFACT_KIND, type AgentId, type ArtifactKind } from '../core/agents';
import { ForeignRunError, StoreCorruptError, UsageError } from '../core/errors';
import type { Artifact, ArtifactMeta, RunRecord } from '../core/run';
import type { AgentResults } from '../contracts/agentSchemas';
import { formatContractErrors, validate } from '../contracts/validate';
import { isOwnRun } from './ownership';
import { runRecordProblem, type IgnoredRuns } from './runRecords';
import { sessionKey, type RunStore } from './types';

/**
 * An artifact's text is the RFC 8785 text of {content, kind, meta, runId} and its id is that text's
 * hash. One canonicalization gives the id and the stored bytes; a load checks integrity by hashing
 * the bytes, with no re-serializing.
 */
export function artifactText(runId: string, kind: ArtifactKind, content: unknown, meta: ArtifactMeta): { id: string; text: string } {
  const text = canonicalJson({ content, kind, meta, runId });
  return { id: 'a_' + sha256(text).slice(0, 32), text };
}

export abstract class BaseRunStore implements RunStore {
  abstract readonly location: string;
  constructor(readonly workspace: string) {}

  abstract init(): Promise<void>;
  abstract getRun(id: string): Promise<RunRecord | undefined>;
  abstract saveRun(run: RunRecord): Promise<RunRecord>;
  abstract scanRuns(): Promise<{ runs: RunRecord[]; ignored: IgnoredRuns }>;
  abstract lockRun(id: string): Promise<() => Promise<void>>;
  abstract close(): Promise<void>;
  /** the stored text, or undefined when there is none */
  protected abstract readArtifactText(runId: string, id: string): Promise<string | undefined>;
  /** stores the text under its id, once: writing an id that is already stored changes nothing */
  protected abstract writeArtifactText(runId: string, id: string, kind: ArtifactKind, text: string): Promise<void>;
  /** the ids of the run's artifacts that may be session artifacts, sorted */
  protected abstract artifactIds(runId: string): Promise<string[]>;
  /** where a missing artifact was looked for, for the error */
  protected abstract artifactPlace(runId: string, id: string): string;

  async putArtifact(runId: string, kind: ArtifactKind, content: object, meta: ArtifactMeta): Promise<Artifact> {
    const { id, text } = artifactText(runId, kind, content, meta);
    const artifact: Artifact = { id, runId, kind, content, meta };
    const check = validate('artifact', artifact);
    if (!check.ok) throw new Error(`artifact does not match its schema: ${formatContractErrors(check.errors)}`);
    await this.writeArtifactText(runId, id, kind, text);
    return artifact;
  }

  async getArtifact(runId: string, id: string): Promise<Artifact> {
    return (await this.loadArtifact(runId, id)).artifact;
  }

  async agentOutput<A extends AgentId>(run: RunRecord, agent: A): Promise<AgentResults[A]> {
    const id = run.activities.find((a) => a.agent === agent)?.artifactId;
    if (!id) throw new StoreCorruptError(`run ${run.id} has no committed ${agent} output`);
    const artifact = await this.getArtifact(run.id, id);
    if (artifact.kind !== ARTIFACT_KIND[agent])
      throw new StoreCorruptError(`artifact ${id} is ${artifact.kind}, not the ${agent}'s output`);
    // Validated against the agent's output contract before it was stored, and hash-checked on load.
    return artifact.content as AgentResults[A];
  }

  /**
   * The text of the content is cut from the verified text: canonical JSON sorts keys, so "content"
   * is the first member and ',"kind":' (quotes unescaped, so never inside a string) closes it.
   */
  async loadArtifact(runId: string, id: string): Promise<{ artifact: Artifact; contentText: string }> {
    const text = await this.artifactRaw(runId, id);
    const end = text.lastIndexOf(',"kind":');
    if (!text.startsWith('{"content":') || end < 0) throw new StoreCorruptError(`artifact ${id} is not in canonical form`);
    const doc = JSON.parse(text) as Omit<Artifact, 'id'>;
    const artifact: Artifact = { id, runId: doc.runId, kind: doc.kind, content: doc.content, meta: doc.meta };
    const check = validate('artifact', artifact);
    if (!check.ok) throw new StoreCorruptError(`artifact ${id} does not match its schema: ${formatContractErrors(check.errors)}`);
    if (artifact.runId !== runId) throw new StoreCorruptError(`artifact ${id} belongs to run ${artifact.runId}, not ${runId}`);
    return { artifact, contentText: text.slice('{"content":'.length, end) };
  }

  async artifactRaw(runId: string, id: string): Promise<string> {
    const text = await this.readArtifactText(runId, id);
    if (text === undefined) throw new StoreCorruptError(`artifact ${id} is missing from ${this.artifactPlace(runId, id)}`);
    if ('a_' + sha256(text).slice(0, 32) !== id)
      throw new StoreCorruptError(
        `artifact ${id} content does not match its id: it was edited or damaged (${this.artifactPlace(runId, id)})`,
      );
    return text;
  }

  /**
   * An artifact persisted but never committed to the run record (the process died in between) has
   * the same kind and prompt as the activity that made it, so a resumed run adopts it instead of
   * calling the model again. An artifact that does not load is left out, never fatal.
   */
  async sessionArtifacts(runId: string): Promise<Map<string, Artifact>> {
    const out = new Map<string, Artifact>();
    for (const id of await this.artifactIds(runId)) {
      const artifact = await this.getArtifact(runId, id).catch(() => undefined);
      if (artifact && 'promptHash' in artifact.meta) out.set(sessionKey(artifact.kind, artifact.meta.promptHash), artifact);
    }
    return out;
  }

  async findUncommittedArtifact(runId: string, kind: ArtifactKind, promptHash: string): Promise<Artifact | undefined> {
    return (await this.sessionArtifacts(runId)).get(sessionKey(kind, promptHash));
  }

  async getOwnRun(id: string): Promise<RunRecord> {
    const run = await this.getRun(id);
    if (!run) throw new UsageError(`no run ${id} in ${this.location}`);
    const problem = runRecordProblem(run);
    if (problem) throw new StoreCorruptError(`run ${id} in ${this.location} is ${problem}; AMTP will not resume or approve it`);
    if (!isOwnRun(run, this.workspace)) {
      throw new ForeignRunError(
        `run ${id} in ${this.location} was not created by you in this workspace (it may have come with the repository); AMTP will not resume or approve it. Start a new run instead.`,
      );
    }
    return run;
  }

  async listRuns(): Promise<RunRecord[]> {
    return (await this.scanRuns()).runs;
  }
}

/** The message of a refused stale write, the same for every store. */
export function staleRunMessage(id: string, stored: number, expected: number): string {
  return `run ${id} was changed by another process (version ${stored}, expected ${expected})`;
}
