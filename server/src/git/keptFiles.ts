// Which files a run kept: the files it wrote (or found already written) that are still on disk
// after verification, plus the verifier's quarantine files. Their bytes are read once here, and
// those bytes are what the approval names and what the commit holds.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { type RunRecord, WRITTEN_ACTIONS } from '../core/run';
import { resolveInside } from '../util/safePath';
import type { CommitFile } from './commit';

export function keptPaths(run: RunRecord): string[] {
  const paths = [
    ...run.files.filter((f) => WRITTEN_ACTIONS.has(f.action)).map((f) => f.path),
    ...(run.verification?.quarantineFiles ?? []),
  ];
  return [...new Set(paths)].sort();
}

/** The kept files that exist as regular files, with repository-relative paths (the workspace may be a subfolder). */
export async function readKept(workspace: string, repoRoot: string, run: RunRecord): Promise<CommitFile[]> {
  const out: CommitFile[] = [];
  for (const rel of keptPaths(run)) {
    const abs = await fsp.realpath(await resolveInside(workspace, rel)).catch(() => undefined);
    if (!abs) continue; // removed by the verifier (no assured test left) or by the person
    const st = await fsp.stat(abs);
    if (!st.isFile()) continue;
    out.push({ path: path.relative(repoRoot, abs).split(path.sep).join('/'), bytes: await fsp.readFile(abs) });
  }
  return out;
}
