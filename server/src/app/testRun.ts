// Running a run's written tests outside the pipeline (VS Code's Run Generated Tests and its Testing
// view, MCP's tests_run): one way for every front door. The run is locked, and the runner starts
// only through the run's gateway, so it is asked (or approved by the person's own command), recorded
// in the run's approvals and audited, under the person's risk policy.
import type { ApprovalRecord, RunRecord } from '../core/run';
import { Gateway, type Approver, type GatewayLog, type GatewayResult } from '../gateway/gateway';
import type { RiskOverrides } from '../gateway/policy';
import { sealApproval } from '../store/ownership';
import type { RunStore } from '../store/types';
import { runPolicy } from './policy';

export interface TestRunRequest<T> {
  store: RunStore;
  workspace: string;
  runId: string;
  approver: Approver;
  /** the person's own risk settings (never the repository's, which can only raise a risk) */
  risk?: RiskOverrides;
  /** what the approval request and the audit say: which files, with what, within what time */
  summary: string;
  target?: string;
  /** starts the runner: only called once the gateway lets it */
  run: () => Promise<T>;
}

export async function gatedTestRun<T>(r: TestRunRequest<T>): Promise<GatewayResult<T>> {
  const release = await r.store.lockRun(r.runId);
  try {
    const { riskPolicy } = await runPolicy(r.workspace, r.risk);
    const gateway = new Gateway(r.runId, r.approver, runLog(r.store, r.runId), riskPolicy);
    return await gateway.execute('tests.run', { summary: r.summary, ...(r.target ? { target: r.target } : {}) }, r.run);
  } finally {
    await release();
  }
}

/** The person's command (a click on Run Tests) is the approval: the record says who asked and how. */
export function commandApproval(command: string): Approver {
  return { ask: () => Promise.resolve({ decision: 'approved', note: `the person ran ${command}`, by: 'person (command)' }) };
}

/** The gateway's approvals and audit rows, into the run record on disk (the caller holds its lock). */
function runLog(store: RunStore, runId: string): GatewayLog {
  const update = async (mut: (r: RunRecord) => void) => {
    const r = structuredClone((await store.getRun(runId))!);
    mut(r);
    await store.saveRun(r);
  };
  return {
    approval: (rec: ApprovalRecord) =>
      update((r) => {
        r.approvals = [...r.approvals.filter((a) => a.id !== rec.id), sealApproval(runId, store.workspace, rec)];
      }),
    audit: (row: RunRecord['audit'][number]) =>
      update((r) => {
        r.audit.push(row);
      }),
  };
}
