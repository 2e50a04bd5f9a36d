import { constants as FS, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { Low } from 'lowdb';
import { DataFile, JSONFile } from 'lowdb/node';
import { validate, formatContractErrors } from '../contracts/validate';
import { ForeignRunError, StoreCorruptError, UsageError } from '../core/errors';
import { isOwnRun } from './ownership';
import { canonicalJson, sha256 } from '../core/canonical';
import { ARTIFACT_KIND, type AgentId, type ArtifactKind } from '../core/agents';
import type { Artifact, ArtifactMeta, RunRecord } from '../core/run';
import type { AgentResults } from '../contracts/agentSchemas';

export const STORE_DIR = '.amtp';

/**
 * The store of record. One lowdb file per run and one content-addressed lowdb
 * file per artifact, so the cost of a write depends on that record alone and
 * never on how much history the workspace has. lowdb (steno) writes to a temp
 * file and renames it, so a SIGKILL leaves either the old or the new file.
 */
export class RunStore {
  readonly dir: string;

  constructor(readonly workspace: string) {
    this.dir = path.join(workspace, STORE_DIR);
  }

  private runPath(id: string): string {
    return path.join(this.dir, 'runs', `${safeId(id)}.json`);
  }

  private artifactPath(runId: string, id: string): string {
    return path.join(this.dir, 'artifacts', safeId(runId), `${safeId(id)}.json`);
  }

  async init(): Promise<void> {
    await fsp.mkdir(path.join(this.dir, 'runs'), { recursive: true });
    await fsp.mkdir(path.join(this.dir, 'artifacts'), { recursive: true });
    // Keep run state out of the user's commits without touching their .gitignore.
    await fsp.writeFile(path.join(this.dir, '.gitignore'), '*\n', { flag: 'w' });
  }

  /**
   * An artifact file is the RFC 8785 text of {runId, kind, content, meta} and its
   * id is that text's hash. One canonicalization gives the id and the bytes on
   * disk, and a load checks integrity by hashing the bytes, with no re-serializing.
   */
  static artifactText(runId: string, kind: ArtifactKind, content: unknown, meta: ArtifactMeta): { id: string; text: string } {
    const text = canonicalJson({ content, kind, meta, runId });
    return { id: 'a_' + sha256(text).slice(0, 32), text };
  }

  /** Validates the artifact, then writes it once (content-addressed: a rewrite is a no-op). */
  async putArtifact(runId: string, kind: ArtifactKind, content: object, meta: ArtifactMeta): Promise<Artifact> {
    const { id, text } = RunStore.artifactText(runId, kind, content, meta);
    const artifact: Artifact = { id, runId, kind, content, meta };
    const check = validate('artifact', artifact);
    if (!check.ok) throw new Error(`artifact does not match its schema: ${formatContractErrors(check.errors)}`);
    const file = this.artifactPath(runId, id);
    if (!(await exists(file))) {
      await fsp.mkdir(path.dirname(file), { recursive: true });
      // lowdb with a pass-through serializer: the canonical text is already the file.
      const db = new Low<string>(new DataFile<string>(file, { parse: (t) => t, stringify: (t) => t }), text);
      await db.write();
    }
    return artifact;
  }

  async getArtifact(runId: string, id: string): Promise<Artifact> {
    return (await this.loadArtifact(runId, id)).artifact;
  }

  /** The committed output of `agent` in `run`, with its contract's type. */
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
   * The artifact plus the canonical text of its content, for splicing into an
   * envelope without canonicalizing the payload again. The text is cut from the
   * verified file: canonical JSON sorts keys, so "content" is the first member
   * and ',"kind":' (quotes unescaped, so never inside a string) closes it.
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

  /** The artifact's canonical text, integrity-checked: the hash of the bytes must be the id. */
  async artifactRaw(runId: string, id: string): Promise<string> {
    const file = this.artifactPath(runId, id);
    const text = await fsp.readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') throw new StoreCorruptError(`artifact ${id} is missing from ${path.dirname(file)}`);
      throw e;
    });
    if ('a_' + sha256(text).slice(0, 32) !== id)
      throw new StoreCorruptError(`artifact ${id} content does not match its id: the file was edited or damaged (${file})`);
    return text;
  }

  /**
   * Every session artifact this run has on disk, by kind and prompt hash. An artifact persisted but
   * never committed to the run record (the process died in between) has the same kind and prompt
   * as the activity that made it, so a resumed run adopts it instead of calling the model again.
   */
  async sessionArtifacts(runId: string): Promise<Map<string, Artifact>> {
    const dir = path.join(this.dir, 'artifacts', safeId(runId));
    const names = (await fsp.readdir(dir).catch(() => [] as string[])).filter((n) => /^a_[0-9a-f]{32}\.json$/.test(n)).sort();
    const out = new Map<string, Artifact>();
    for (const name of names) {
      const artifact = await this.getArtifact(runId, name.slice(0, -5)).catch(() => undefined);
      if (artifact && 'promptHash' in artifact.meta) out.set(sessionKey(artifact.kind, artifact.meta.promptHash), artifact);
    }
    return out;
  }

  async findUncommittedArtifact(runId: string, kind: ArtifactKind, promptHash: string): Promise<Artifact | undefined> {
    return (await this.sessionArtifacts(runId)).get(sessionKey(kind, promptHash));
  }

  async getRun(id: string): Promise<RunRecord | undefined> {
    return this.readJson<RunRecord>(this.runPath(id), `run ${id}`);
  }

  /** A run this person created here, or an error that says why it is not one AMTP will act on. */
  async getOwnRun(id: string): Promise<RunRecord> {
    const run = await this.getRun(id);
    if (!run) throw new UsageError(`no run ${id} in ${this.dir}`);
    if (!isOwnRun(run, this.workspace)) {
      throw new ForeignRunError(
        `run ${id} in ${this.dir} was not created by you in this workspace (it may have come with the repository); AMTP will not resume or approve it. Start a new run instead.`,
      );
    }
    return run;
  }

  /**
   * Optimistic versioning: the caller passes the version it read. If the file
   * moved on meanwhile (another process), the write is refused, not merged.
   */
  async saveRun(run: RunRecord): Promise<RunRecord> {
    const file = this.runPath(run.id);
    const onDisk = await this.readJson<RunRecord>(file, `run ${run.id}`);
    if (onDisk && onDisk.version !== run.version) {
      throw new Error(`run ${run.id} was changed by another process (version ${onDisk.version}, expected ${run.version})`);
    }
    const next: RunRecord = { ...run, version: run.version + 1, updatedAt: new Date().toISOString() };
    const db = new Low<RunRecord>(new JSONFile(file), next);
    try {
      await db.write();
    } catch (e) {
      // steno leaves its partial temp file behind on ENOSPC/EIO; the run file itself is intact.
      await fsp.rm(path.join(path.dirname(file), `.${path.basename(file)}.tmp`), { force: true }).catch(() => undefined);
      throw e;
    }
    return next;
  }

  /** This person's runs here, oldest first. Records that came from elsewhere are left out (see foreignRunIds). */
  async listRuns(): Promise<RunRecord[]> {
    return (await this.allRuns()).filter((r) => isOwnRun(r, this.workspace));
  }

  /** Run records under .amtp/runs that this person did not create here. */
  async foreignRunIds(): Promise<string[]> {
    return (await this.allRuns()).filter((r) => !isOwnRun(r, this.workspace)).map((r) => r.id);
  }

  private async allRuns(): Promise<RunRecord[]> {
    let names: string[];
    try {
      names = await fsp.readdir(path.join(this.dir, 'runs'));
    } catch {
      return [];
    }
    const runs: RunRecord[] = [];
    for (const name of names.filter((n) => n.endsWith('.json') && !n.startsWith('.'))) {
      const run = await this.readJson<RunRecord>(path.join(this.dir, 'runs', name), name);
      if (run) runs.push(run);
    }
    return runs.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  /** A run is worked on by one process at a time. A lock of a dead process is taken over. */
  async lockRun(id: string): Promise<() => Promise<void>> {
    const file = path.join(this.dir, 'runs', `${safeId(id)}.lock`);
    for (let i = 0; i < 2; i++) {
      // The lock appears with its pid already inside (written aside, then hard-linked into place),
      // so a second process never reads an empty lock and mistakes it for a dead one.
      const aside = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
      await fsp.writeFile(aside, String(process.pid));
      try {
        await fsp.link(aside, file);
        return async () => {
          await fsp.rm(file, { force: true });
        };
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
        const pid = Number(await fsp.readFile(file, 'utf8').catch(() => ''));
        if (pid && pid !== process.pid && isAlive(pid)) throw new Error(`run ${id} is in use by process ${pid}`, { cause: e });
        await fsp.rm(file, { force: true });
      } finally {
        await fsp.rm(aside, { force: true });
      }
    }
    throw new Error(`could not lock run ${id}`);
  }

  /** Unreadable JSON is an error with a backup kept, never a silent reset to empty. */
  private async readJson<T>(file: string, what: string): Promise<T | undefined> {
    let text: string;
    try {
      text = await fsp.readFile(file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
    try {
      return JSON.parse(text) as T;
    } catch (e) {
      const backup = `${file}.corrupt-${Date.now()}`;
      await fsp.copyFile(file, backup, FS.COPYFILE_EXCL).catch(() => undefined);
      throw new StoreCorruptError(
        `${what} is not valid JSON (${file}): ${(e as Error).message}. A copy was kept at ${backup}; the file was left as it is.`,
      );
    }
  }
}

export function sessionKey(kind: ArtifactKind, promptHash: string): string {
  return `${kind}\n${promptHash}`;
}

function safeId(id: string): string {
  if (!/^[A-Za-z0-9_-]{1,80}$/.test(id)) throw new Error(`invalid id: ${JSON.stringify(id)}`);
  return id;
}

async function exists(file: string): Promise<boolean> {
  try {
    await fsp.access(file);
    return true;
  } catch {
    return false;
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
