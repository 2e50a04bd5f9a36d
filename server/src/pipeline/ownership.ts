// A run record under .amtp/ may have come with the repository: committed, copied or planted. AMTP
// resumes, approves and lists as the person's only the runs it created for them here. Each run
// record carries an HMAC of its id and the workspace's real path under a key that lives outside
// every workspace (the person's state folder), so a repository can neither forge one nor move a
// genuine record to another checkout.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** Where the key lives: AMTP_STATE_DIR, else $XDG_STATE_HOME/amtp, else ~/.local/state/amtp. */
export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.AMTP_STATE_DIR) return env.AMTP_STATE_DIR;
  return path.join(env.XDG_STATE_HOME || path.join(os.homedir(), '.local', 'state'), 'amtp');
}

let cached: { dir: string; key: Buffer; durable: boolean } | undefined;

/**
 * The person's owner key, created on first use (0600). When it cannot be stored, a key for this
 * process alone is used: its runs can then not be resumed by another process, which is safe.
 */
export function ownerKey(dir = stateDir()): { key: Buffer; durable: boolean } {
  if (cached?.dir === dir) return cached;
  const file = path.join(dir, 'owner.key');
  let key: Buffer | undefined;
  let durable = true;
  try {
    key = Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
  } catch {
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      writeFileSync(file, randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
    } catch {
      // another process created it first (EEXIST), or the folder is not writable
    }
    try {
      key = Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
    } catch {
      durable = false;
    }
  }
  if (!key || key.length < 16) {
    key = randomBytes(32);
    durable = false;
  }
  cached = { dir, key, durable };
  return cached;
}

export function ownerMark(runId: string, workspace: string, key = ownerKey().key): string {
  let real = workspace;
  try {
    real = realpathSync(workspace);
  } catch {
    // a workspace that no longer resolves keeps its given path
  }
  return 'o1_' + createHmac('sha256', key).update(`${runId}\n${real}`).digest('hex');
}

export function isOwnRun(run: { id: string; owner?: string }, workspace: string): boolean {
  if (typeof run.owner !== 'string') return false;
  const want = Buffer.from(ownerMark(run.id, workspace));
  const got = Buffer.from(run.owner);
  return got.length === want.length && timingSafeEqual(got, want);
}
