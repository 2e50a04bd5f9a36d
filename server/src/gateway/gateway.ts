import { randomUUID } from 'node:crypto';
import type { Risk, ToolName } from '../core/risk';
import type { ApprovalRecord, AuditRow, Decision } from '../core/run';
import { riskOf, type RiskPolicy } from './policy';

export interface ApprovalRequest {
  id: string;
  runId: string;
  tool: ToolName;
  risk: Risk;
  summary: string;
  target?: string;
  /** for file writes: the current and proposed text, so a client can show a diff */
  diff?: { path: string; before: string | null; after: string };
}

/** What a tool call says about itself: shown in its approval request and written in its audit rows. */
export interface ToolCallInfo {
  summary: string;
  target?: string;
  diff?: ApprovalRequest['diff'];
  /** a stable approval id (a resumed run finds its pending request again); a random one when absent */
  approvalId?: string;
}

export interface ApprovalAnswer {
  decision: Exclude<Decision, 'auto'>;
  note?: string;
  by?: string;
}

/** Asks a person. Implementations: CLI prompt, --yes, deferred (no TTY), VS Code. */
export interface Approver {
  ask(req: ApprovalRequest): Promise<ApprovalAnswer>;
}

export interface GatewayLog {
  approval(rec: ApprovalRecord): void | Promise<void>;
  audit(row: AuditRow): void | Promise<void>;
}

export type GatewayResult<T> = { ran: true; value: T; approval?: ApprovalRecord } | { ran: false; approval: ApprovalRecord };

/**
 * Every tool that changes the workspace or executes its code goes through here.
 * Low risk runs; medium runs and is audited; high waits for a person, and a
 * rejection, a timeout or a deferral means the tool body never runs.
 */
export class Gateway {
  constructor(
    private readonly runId: string,
    private readonly approver: Approver,
    private readonly log: GatewayLog,
    private readonly policy: RiskPolicy = {},
  ) {}

  async execute<T>(tool: ToolName, info: ToolCallInfo, body: () => Promise<T>): Promise<GatewayResult<T>> {
    const risk = riskOf(tool, this.policy);
    let approval: ApprovalRecord | undefined;
    if (risk === 'high') {
      approval = await this.askApproval(tool, risk, info);
      if (approval.decision !== 'approved') {
        await this.audit(tool, risk, info, 'refused', approval.id, approval.decision);
        return { ran: false, approval };
      }
    }
    try {
      const value = await body();
      if (risk !== 'low') await this.audit(tool, risk, info, 'executed', approval?.id);
      return { ran: true, value, approval };
    } catch (e) {
      await this.audit(tool, risk, info, 'failed', approval?.id, (e as Error).message);
      throw e;
    }
  }

  /** Asks the approver and records the answer; an approver that throws has said no. */
  private async askApproval(tool: ToolName, risk: Risk, info: ToolCallInfo): Promise<ApprovalRecord> {
    const req: ApprovalRequest = {
      id: info.approvalId ?? randomUUID(),
      runId: this.runId,
      tool,
      risk,
      summary: info.summary,
      target: info.target,
      diff: info.diff,
    };
    const requestedAt = new Date().toISOString();
    let answer: ApprovalAnswer;
    try {
      answer = await this.approver.ask(req);
    } catch (e) {
      // An approver that fails is a "no", never a silent yes.
      answer = { decision: 'rejected', note: `approval failed: ${(e as Error).message}` };
    }
    const approval: ApprovalRecord = {
      id: req.id,
      tool,
      risk,
      summary: info.summary,
      target: info.target,
      decision: answer.decision,
      note: answer.note,
      decidedBy: answer.by,
      requestedAt,
      decidedAt: answer.decision === 'pending' ? undefined : new Date().toISOString(),
    };
    await this.log.approval(approval);
    return approval;
  }

  private async audit(
    tool: ToolName,
    risk: Risk,
    info: ToolCallInfo,
    outcome: AuditRow['outcome'],
    approvalId: string | undefined,
    detail?: string,
  ): Promise<void> {
    await this.log.audit({
      at: new Date().toISOString(),
      tool,
      risk,
      target: info.target,
      outcome,
      approvalId,
      ...(detail !== undefined ? { detail } : {}),
    });
  }
}
