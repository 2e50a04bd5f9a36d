import type { TestCases } from '../contracts/types';
import type { RunStore } from './store';
import type { RunRecord, RunStatus } from './types';

/** The `--json` contract of the CLI (DESIGN.md). CI scripts parse this; add fields, never rename. */
export interface RunSummary {
  runId: string;
  status: RunStatus;
  reason?: string;
  activities: { agent: string; status: string; attempts: number; artifactId?: string; errors: { kind: string; message: string; details?: unknown }[] }[];
  cases: { id: string; priority: string; title: string }[];
  files: { path: string; action: string }[];
  approvals: { id: string; tool: string; risk: string; decision: string; target?: string }[];
}

export async function summarize(run: RunRecord, store: RunStore): Promise<RunSummary> {
  const gen = run.activities.find((a) => a.agent === 'generator');
  let cases: RunSummary['cases'] = [];
  if (gen?.artifactId) {
    const content = (await store.getArtifact(run.id, gen.artifactId)).content as unknown as TestCases;
    cases = content.cases.map((c) => ({ id: c.id, priority: c.priority, title: c.title }));
  }
  return {
    runId: run.id,
    status: run.status,
    reason: run.reason,
    activities: run.activities.map((a) => ({
      agent: a.agent, status: a.status, attempts: a.attempts, artifactId: a.artifactId,
      errors: a.errors.map((e) => ({ kind: e.kind, message: e.message, ...(e.details ? { details: e.details } : {}) })),
    })),
    cases,
    files: run.files.map((f) => ({ path: f.path, action: f.action })),
    approvals: run.approvals.map((a) => ({ id: a.id, tool: a.tool, risk: a.risk, decision: a.decision, target: a.target })),
  };
}

export const EXIT = { ok: 0, usage: 2, needsReview: 3, failed: 4 } as const;

export function exitCodeFor(status: RunStatus): number {
  switch (status) {
    case 'completed': return EXIT.ok;
    case 'needs_review': return EXIT.needsReview;
    default: return EXIT.failed; // failed, cancelled, awaiting_approval (no TTY)
  }
}
