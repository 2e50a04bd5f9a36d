import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * The figures of the hostile suite. Each test adds what it tried to its category; the
 * report file (test/hostile/report.test.ts) writes them to test-output/hostile-report.json
 * and prints the table that docs/security.md quotes.
 */
export interface Tally {
  tried: number;
  failures: number;
  dataLost: number;
  unapproved: number;
  notes: string[];
}

const tallies = new Map<string, Tally>();
export const figures: Record<string, unknown> = {};

export function tally(category: string, add: Partial<Omit<Tally, 'notes'>> & { note?: string }): void {
  const t = tallies.get(category) ?? { tried: 0, failures: 0, dataLost: 0, unapproved: 0, notes: [] };
  t.tried += add.tried ?? 0;
  t.failures += add.failures ?? 0;
  t.dataLost += add.dataLost ?? 0;
  t.unapproved += add.unapproved ?? 0;
  if (add.note) t.notes.push(add.note);
  tallies.set(category, t);
}

export function allTallies(): [string, Tally][] {
  return [...tallies.entries()];
}

/** Every file and directory under `dir` (hidden ones included), as relative paths. */
export async function listAll(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    const entries = await fsp.readdir(path.join(dir, rel), { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      out.push(r);
      if (e.isDirectory()) await walk(r);
    }
  };
  await walk('');
  return out.sort();
}

/** Temp files a write in progress leaves: ours (`.amtp-tmp`), steno's (`.<name>.tmp`). */
export async function tempLeftovers(dir: string): Promise<string[]> {
  return (await listAll(dir)).filter((p) => /\.amtp-tmp$|(^|\/)\.[^/]+\.tmp$/.test(p));
}

/** path → sha256 of every regular file under dir (symlinks as "-> target"). */
export async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const rel of await listAll(dir)) {
    const abs = path.join(dir, rel);
    const st = await fsp.lstat(abs).catch(() => undefined);
    if (!st) continue;
    if (st.isSymbolicLink()) out[rel] = `-> ${await fsp.readlink(abs)}`;
    else if (st.isFile())
      out[rel] = createHash('sha256')
        .update(await fsp.readFile(abs))
        .digest('hex');
  }
  return out;
}

/** Artifact files of a workspace's store, by run: [{runId, id, kind}] */
export async function artifactsOf(ws: string): Promise<{ runId: string; id: string; kind: string }[]> {
  const root = path.join(ws, '.amtp', 'artifacts');
  const out: { runId: string; id: string; kind: string }[] = [];
  for (const runId of await fsp.readdir(root).catch(() => [] as string[])) {
    for (const name of await fsp.readdir(path.join(root, runId))) {
      if (!name.endsWith('.json')) continue;
      const doc = JSON.parse(await fsp.readFile(path.join(root, runId, name), 'utf8')) as { kind: string };
      out.push({ runId, id: name.slice(0, -5), kind: doc.kind });
    }
  }
  return out;
}

/** A seeded PRNG (mulberry32): the same seed gives the same fault schedule on every machine. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Removes a temp folder this suite made, and nothing else: the path must be a direct child of the
 * OS temp dir named amtp-… (a cleanup that computed the wrong parent must fail, not delete /tmp).
 */
export async function rmTemp(dir: string | undefined): Promise<void> {
  if (!dir) return;
  const tmp = await fsp.realpath(os.tmpdir());
  const real = await fsp.realpath(dir).catch(() => undefined);
  if (!real) return;
  if (path.dirname(real) !== tmp || !/^amtp-/.test(path.basename(real)))
    throw new Error(`refusing to remove ${dir}: not a temp folder of this suite`);
  await fsp.rm(real, { recursive: true, force: true });
}

/** A fresh /tmp/amtp-<prefix>XXXX folder. */
export function tempDir(prefix: string): Promise<string> {
  return fsp.mkdtemp(path.join(os.tmpdir(), `amtp-${prefix}`));
}
