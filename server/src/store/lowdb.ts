import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { Low } from 'lowdb';
import { DataFile, JSONFile } from 'lowdb/node';
import { StoreCorruptError, errorMessage } from '../core/errors';
import type { ArtifactKind } from '../core/agents';
import type { RunRecord } from '../core/run';
import { fileKind, readRegularFileSync } from '../util/regularFile';
import { atomicWrite } from '../util/safePath';
import { BaseRunStore, staleRunMessage } from './base';
import { isOwnRun } from './ownership';
import { isRunRecordShape, runRecordProblem, type IgnoredRuns } from './runRecords';
import { safeId } from './types';

export const STORE_DIR = '.amtp';

/**
 * The default store of record. One lowdb file per run and one content-addressed lowdb
 * file per artifact, so the cost of a write depends on that record alone and
 * never on how much history the workspace has. lowdb (steno) writes to a temp
 * file and renames it, so a SIGKILL leaves either the old or the new file.
 */
export class LowdbStore extends BaseRunStore {
  readonly dir: string;

  constructor(workspace: string) {
    super(workspace);
    this.dir = path.join(workspace, STORE_DIR);
  }

  get location(): string {
    return this.dir;
  }

  async close(): Promise<void> {
    // files only: nothing to release
  }

  private runPath(id: string): string {
    return path.join(this.dir, 'runs', `${safeId(id)}.json`);
  }

  private artifactPath(runId: string, id: string): string {
    return path.join(this.dir, 'artifacts', safeId(runId), `${safeId(id)}.json`);
  }

  async init(): Promise<void> {
    // A repository may ship .amtp/ (or a part of it) as a symlink: the store would then be written
    // wherever it points. Only real folders are used.
    for (const dir of [this.dir, path.join(this.dir, 'runs'), path.join(this.dir, 'artifacts')]) {
      const st = await fsp.lstat(dir).catch(() => undefined);
      if (st && !st.isDirectory())
        throw new StoreCorruptError(
          `${dir} is a ${fileKind(st)}, not a folder (it may have come with the repository); AMTP keeps its run store only in a real folder: remove it and run again`,
        );
      if (!st) await fsp.mkdir(dir, { recursive: true });
    }
    // Keep run state out of the user's commits without touching their .gitignore. Written aside and
    // renamed into place, so a planted .gitignore symlink is replaced, never written through.
    await atomicWrite(path.join(this.dir, '.gitignore'), '*\n');
  }

  protected async writeArtifactText(runId: string, id: string, _kind: ArtifactKind, text: string): Promise<void> {
    const file = this.artifactPath(runId, id);
    if (await exists(file)) return; // content-addressed: the same id is the same bytes
    await fsp.mkdir(path.dirname(file), { recursive: true });
    // lowdb with a pass-through serializer: the canonical text is already the file.
    const db = new Low<string>(new DataFile<string>(file, { parse: (t) => t, stringify: (t) => t }), text);
    await db.write();
  }

  protected async readArtifactText(runId: string, id: string): Promise<string | undefined> {
    return fsp.readFile(this.artifactPath(runId, id), 'utf8').catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return undefined;
      throw e;
    });
  }

  protected async artifactIds(runId: string): Promise<string[]> {
    const dir = path.join(this.dir, 'artifacts', safeId(runId));
    const names = await fsp.readdir(dir).catch(() => [] as string[]);
    return names
      .filter((n) => /^a_[0-9a-f]{32}\.json$/.test(n))
      .sort()
      .map((n) => n.slice(0, -5));
  }

  protected artifactPlace(runId: string, id: string): string {
    return path.dirname(this.artifactPath(runId, id));
  }

  async getRun(id: string): Promise<RunRecord | undefined> {
    return this.readJson<RunRecord>(this.runPath(id), `run ${id}`);
  }

  /**
   * Optimistic versioning: the caller passes the version it read. If the file
   * moved on meanwhile (another process), the write is refused, not merged.
   */
  async saveRun(run: RunRecord): Promise<RunRecord> {
    const file = this.runPath(run.id);
    const onDiskVersion = await this.versionOnDisk(file, run.id);
    if (onDiskVersion !== undefined && onDiskVersion !== run.version) {
      throw new Error(staleRunMessage(run.id, onDiskVersion, run.version));
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
    const st = await fsp.stat(file, { bigint: true }).catch(() => undefined);
    if (st) this.written.set(file, { ...fileIdentity(st), version: next.version });
    return next;
  }

  /**
   * What this process last wrote to each run file. A record of a large run is megabytes of JSON,
   * saved at every stage and audited action: while the file is still the one written here (steno
   * renames a new file into place at every write, so another writer changes its inode), its version
   * is known without reading it again.
   */
  private readonly written = new Map<string, { ino: bigint; size: bigint; mtimeNs: bigint; version: number }>();

  private async versionOnDisk(file: string, id: string): Promise<number | undefined> {
    const mine = this.written.get(file);
    const st = mine && (await fsp.stat(file, { bigint: true }).catch(() => undefined));
    if (mine && st && sameFile(mine, fileIdentity(st))) return mine.version;
    this.written.delete(file);
    return (await this.readJson<RunRecord>(file, `run ${id}`))?.version;
  }

  /**
   * Every file under .amtp/runs, read as data: this person's runs (oldest first), and the files left
   * aside (another person's records, files that do not parse or are no run record). A file a
   * repository planted is counted, never fatal.
   */
  async scanRuns(): Promise<{ runs: RunRecord[]; ignored: IgnoredRuns }> {
    let names: string[];
    try {
      names = await fsp.readdir(path.join(this.dir, 'runs'));
    } catch {
      return { runs: [], ignored: { foreign: [], unreadable: [] } };
    }
    const runs: RunRecord[] = [];
    const ignored: IgnoredRuns = { foreign: [], unreadable: [] };
    for (const name of names.filter((n) => n.endsWith('.json') && !n.startsWith('.')).sort()) {
      let value: unknown;
      try {
        value = await this.readJson<unknown>(path.join(this.dir, 'runs', name), name);
      } catch (e) {
        ignored.unreadable.push({ file: name, reason: e instanceof StoreCorruptError ? 'not valid JSON' : errorMessage(e) });
        continue;
      }
      const problem = runRecordProblem(value);
      if (problem || !isRunRecordShape(value)) ignored.unreadable.push({ file: name, reason: problem ?? 'not a run record' });
      else if (!isOwnRun(value, this.workspace)) ignored.foreign.push(value.id);
      else if (`${value.id}.json` !== name) ignored.unreadable.push({ file: name, reason: `holds run ${value.id}, not its own file's` });
      else runs.push(value);
    }
    runs.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    return { runs, ignored };
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

  /**
   * Unreadable JSON is an error with a byte copy kept beside it (one per file, however often it is
   * read), never a silent reset to empty. Only a regular file is read: a named pipe planted under
   * .amtp/ would block the read, a symlink could lead anywhere.
   */
  private async readJson<T>(file: string, what: string): Promise<T | undefined> {
    let bytes: Buffer;
    try {
      bytes = readRegularFileSync(file, MAX_RECORD_BYTES);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
    try {
      return JSON.parse(bytes.toString('utf8')) as T;
    } catch (e) {
      const copy = await quarantine(file, bytes);
      throw new StoreCorruptError(
        `${what} is not valid JSON (${file}): ${(e as Error).message}. A copy was kept at ${copy}; the file was left as it is.`,
      );
    }
  }
}

function fileIdentity(st: { ino: bigint; size: bigint; mtimeNs: bigint }): { ino: bigint; size: bigint; mtimeNs: bigint } {
  return { ino: st.ino, size: st.size, mtimeNs: st.mtimeNs };
}

function sameFile(a: { ino: bigint; size: bigint; mtimeNs: bigint }, b: { ino: bigint; size: bigint; mtimeNs: bigint }): boolean {
  return a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs;
}

/** Run records stay far below this; a larger file under .amtp/runs is not read. */
const MAX_RECORD_BYTES = 64 * 1024 * 1024;

/**
 * Keeps one byte copy of an unreadable file next to it, rewritten only when the file's bytes changed.
 * Written aside and renamed into place: a planted `.corrupt` symlink is replaced, never written through.
 */
async function quarantine(file: string, bytes: Buffer): Promise<string> {
  const copy = `${file}.corrupt`;
  let kept: Buffer | undefined;
  try {
    kept = readRegularFileSync(copy, bytes.length);
  } catch {
    kept = undefined; // absent, another size, or not a regular file: (re)written
  }
  if (!kept?.equals(bytes)) await atomicWrite(copy, bytes).catch(() => undefined);
  return copy;
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
