import type { ContractError } from '../contracts/validate';
import type { VerificationRecord, VerifyParams } from '../verifier/types';

export const AGENTS = ['crawler', 'generator', 'engineer'] as const;
export type AgentId = (typeof AGENTS)[number];

export type Depth = 'smoke' | 'standard' | 'deep';
export type FrameworkChoice = 'auto' | 'jest' | 'vitest' | 'mocha' | 'node-test' | 'pytest';
export type Framework = Exclude<FrameworkChoice, 'auto'>;

export type RunStatus = 'running' | 'completed' | 'needs_review' | 'awaiting_approval' | 'failed' | 'cancelled';

export const ARTIFACT_KIND: Record<AgentId, ArtifactKind> = {
  crawler: 'crawler_output',
  generator: 'generator_output',
  engineer: 'engineer_output',
};
export type ArtifactKind = 'crawler_output' | 'generator_output' | 'engineer_output' | 'repair_output';

export interface ArtifactMeta {
  sanitizer: 'v1.0.0';
  provider: string;
  model: string;
  seed: number;
  temperature?: number;
  promptHash: string;
  attempt: number;
}

export interface Artifact {
  id: string;
  runId: string;
  kind: ArtifactKind;
  content: Record<string, unknown>;
  meta: ArtifactMeta;
}

export interface ActivityError {
  kind: string;
  message: string;
  attempt: number;
  at: string;
  /** ajv errors for SchemaValidationError, kept so a person can see what broke */
  details?: ContractError[];
  /** first bytes of the offending reply (never a secret: replies come from the model) */
  excerpt?: string;
}

export interface ActivityRecord {
  agent: AgentId;
  status: 'pending' | 'running' | 'completed' | 'failed' | 'needs_review';
  attempts: number;
  errors: ActivityError[];
  artifactId?: string;
  model?: string;
  startedAt?: string;
  endedAt?: string;
}

export type Risk = 'low' | 'medium' | 'high';
export type Decision = 'approved' | 'rejected' | 'timeout' | 'pending' | 'auto';

export interface ApprovalRecord {
  id: string;
  tool: string;
  risk: Risk;
  summary: string;
  target?: string;
  decision: Decision;
  note?: string;
  decidedBy?: string;
  requestedAt: string;
  decidedAt?: string;
}

export interface AuditRow {
  at: string;
  tool: string;
  risk: Risk;
  target?: string;
  outcome: 'executed' | 'refused' | 'failed';
  approvalId?: string;
  detail?: string;
}

export type FileAction = 'created' | 'overwritten' | 'unchanged' | 'rejected' | 'pending' | 'failed';

export interface FileRecord {
  path: string;
  action: FileAction;
  caseIds: string[];
  sha256?: string;
}

export interface RunParams {
  depth: Depth;
  framework: FrameworkChoice;
  provider: string;
  models: Record<AgentId, string>;
  seed: number;
  temperature: number;
  maxAttempts: number;
  /** the verifier's settings; absent = no verify stage (library callers, replays) */
  verify?: VerifyParams;
}

export interface RunRecord {
  schema_version: 1;
  id: string;
  /** bumped on every write: a stale writer is detected instead of losing an update */
  version: number;
  status: RunStatus;
  stage: AgentId | 'write' | 'verify' | 'done';
  createdAt: string;
  updatedAt: string;
  params: RunParams;
  activities: ActivityRecord[];
  files: FileRecord[];
  approvals: ApprovalRecord[];
  audit: AuditRow[];
  /** why the run stopped where it did, for people */
  reason?: string;
  /** what the verifier ran, kept and dropped (server/src/verifier) */
  verification?: VerificationRecord;
}
