// A run record under .amtp/ may have come with the repository: committed, copied or planted. AMTP
// resumes, approves and lists as the person's only the runs it created for them here. Each run
// record carries an HMAC of its id and the workspace's real path under a key that lives outside
// every workspace (the person's state folder), so a repository can neither forge one nor move a
// genuine record to another checkout. Each decided approval carries a seal of its content under
// the same key: an approval typed into one's own record by hand (or by code that can write the
// workspace but not the person's state folder) is not honoured.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ApprovalRecord, SealedRisks } from '../core/run';

/** Where the key lives: AMTP_STATE_DIR, else $XDG_STATE_HOME/amtp, else ~/.local/state/amtp. */
function stateDir(env: NodeJS.ProcessEnv = process.env): string {
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

function realPath(workspace: string): string {
  try {
    return realpathSync(workspace);
  } catch {
    return workspace; // a workspace that no longer resolves keeps its given path
  }
}

export function ownerMark(runId: string, workspace: string, key = ownerKey().key): string {
  return (
    'o1_' +
    createHmac('sha256', key)
      .update(`${runId}\n${realPath(workspace)}`)
      .digest('hex')
  );
}

const sameMark = (got: unknown, want: string) =>
  typeof got === 'string' && got.length === want.length && timingSafeEqual(Buffer.from(got), Buffer.from(want));

export function isOwnRun(run: { id: string; owner?: string }, workspace: string): boolean {
  return sameMark(run.owner, ownerMark(run.id, workspace));
}

/** The parts of an approval its seal covers: which action, on what, and what was decided. */
type Sealed = Pick<ApprovalRecord, 'id' | 'tool' | 'risk' | 'summary' | 'target' | 'decision'>;

function approvalMac(runId: string, workspace: string, a: Sealed): string {
  const text = ['approval', runId, realPath(workspace), a.id, a.tool, a.risk, a.decision, a.target ?? '', a.summary].join('\n');
  return 's1_' + createHmac('sha256', ownerKey().key).update(text).digest('hex');
}

/** The approval with its seal: taken where the decision is made (the gateway, `amtp approve`). */
export function sealApproval<A extends Sealed>(runId: string, workspace: string, a: A): A & { seal: string } {
  return { ...a, seal: approvalMac(runId, workspace, a) };
}

/** True when the approval is as it was decided in this run and workspace by this person's AMTP. */
export function isSealedApproval(runId: string, workspace: string, a: Sealed & { seal?: string }): boolean {
  return sameMark(a.seal, approvalMac(runId, workspace, a));
}

function risksMac(runId: string, workspace: string, overrides: SealedRisks['overrides']): string {
  const text = JSON.stringify(['risks', runId, realPath(workspace), Object.entries(overrides).sort(([a], [b]) => a.localeCompare(b))]);
  return 'r1_' + createHmac('sha256', ownerKey().key).update(text).digest('hex');
}

/** The person's risk overrides a run started with, sealed so a later `amtp approve` can trust them (pipeline/orchestrator.ts). */
export function sealRisks(runId: string, workspace: string, overrides: SealedRisks['overrides']): SealedRisks {
  return { overrides, seal: risksMac(runId, workspace, overrides) };
}

/**
 * The overrides a run recorded, when their seal holds; {} otherwise. A record a repository brought
 * or someone edited can never lower a risk this way.
 */
export function sealedRisks(runId: string, workspace: string, risks: SealedRisks | undefined): SealedRisks['overrides'] {
  if (!risks || typeof risks.overrides !== 'object' || risks.overrides === null) return {};
  return sameMark(risks.seal, risksMac(runId, workspace, risks.overrides)) ? risks.overrides : {};
}

/**
 * A per-test decision's seal (pipeline/decisions.ts): the workspace and every field that changes what
 * the decision does, as canonical JSON, under the owner key. A decision file a repository brought,
 * edited by hand, or copied from another checkout or another case does not verify and is ignored.
 */
export function decisionMac(workspace: string, fields: Record<string, string | undefined>): string {
  const text = JSON.stringify(['decision', realPath(workspace), Object.entries(fields).sort(([a], [b]) => a.localeCompare(b))]);
  return 'd1_' + createHmac('sha256', ownerKey().key).update(text).digest('hex');
}

export function sameDecisionMac(got: unknown, want: string): boolean {
  return sameMark(got, want);
}
