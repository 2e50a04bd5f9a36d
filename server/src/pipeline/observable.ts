import { canonicalJson } from '../core/canonical';
import type { RunRecord } from '../core/run';

/**
 * The part of a run record that a replay must reproduce: no timestamps, no
 * version counter. Two runs that made the same decisions have the same text.
 */
export function observableState(run: RunRecord): { label: string; state: unknown; text: string } {
  const state = {
    status: run.status,
    stage: run.stage,
    reason: run.reason ?? null,
    activities: run.activities.map((a) => ({
      agent: a.agent,
      status: a.status,
      attempts: a.attempts,
      artifactId: a.artifactId ?? null,
      errors: a.errors.map((e) => e.kind),
      ...(a.batches ? { batches: a.batches.map((b) => ({ index: b.index, status: b.status, artifactId: b.artifactId ?? null })) } : {}),
    })),
    files: run.files.map((f) => ({ path: f.path, action: f.action, sha256: f.sha256 ?? null })),
    approvals: run.approvals.map((a) => ({ id: a.id, tool: a.tool, decision: a.decision })),
  };
  return { label: `${run.status}:${run.stage}`, state, text: canonicalJson(state) };
}
