// The verifier's file writes: every rewrite, removal and quarantine file goes through the gateway.
// A file whose bytes are what AMTP wrote (the engineer's content or an earlier verifier write) is
// "generated": rewriting or removing it is medium risk. Anything else is an fs.overwrite (high).
import { promises as fsp } from 'node:fs';
import type { Gateway } from '../gateway/gateway';
import { sha256 } from '../core/canonical';
import { atomicWrite, resolveInside } from '../util/safePath';

export interface WriteLog {
  /** sha256 of every content AMTP wrote or means to write */
  known: Set<string>;
  /** write-ahead: called (and awaited) before a file changes, so a re-verification can undo it */
  before(path: string, sha: string | null, content: string | null): Promise<void>;
}

export async function readOrNull(abs: string): Promise<string | null> {
  return fsp.readFile(abs, 'utf8').catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? null : Promise.reject(e)));
}

/** Writes (or with `content === null` removes) a workspace file through the gateway. Returns whether it happened. */
export async function putFile(
  gateway: Gateway,
  workspace: string,
  log: WriteLog,
  runId: string,
  path: string,
  content: string | null,
  why: string,
): Promise<{ done: boolean; decision?: string }> {
  const abs = await resolveInside(workspace, path);
  const before = await readOrNull(abs);
  if (before === content) return { done: true };
  const generated = before === null || log.known.has(sha256(before));
  const tool =
    content === null
      ? generated
        ? 'fs.remove_generated'
        : 'fs.overwrite'
      : before === null
        ? 'fs.create_test'
        : generated
          ? 'fs.rewrite_generated'
          : 'fs.overwrite';
  const after = content ?? '';
  if (content !== null) log.known.add(sha256(content));
  await log.before(path, content === null ? null : sha256(content), content);
  const result = await gateway.execute(
    tool,
    {
      summary: `${content === null ? 'Remove' : before === null ? 'Create' : 'Rewrite'} ${path}: ${why}`,
      target: path,
      diff: { path, before, after },
      approvalId: 'ap_' + sha256(`${runId}\n${tool}\n${path}\n${sha256(after)}`).slice(0, 24),
    },
    () => (content === null ? fsp.rm(abs, { force: true }) : atomicWrite(abs, content)),
  );
  return result.ran ? { done: true } : { done: false, decision: result.approval.decision };
}
