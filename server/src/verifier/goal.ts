// Goal validation: every P0/P1 case ends with a passing test or a recorded reason
// (not_written reason, quarantine reason, dropped reason, or its file's write decision).
import type { EngineerOutput, TestCases } from '../contracts/types';
import type { RunRecord } from '../core/run';
import type { CaseResult, VerificationRecord } from '../core/run';

export function unmetGoals(plan: TestCases, eng: EngineerOutput, run: RunRecord, results: CaseResult[]): VerificationRecord['unmet'] {
  const notWritten = new Set(eng.not_written.map((n) => n.caseId));
  const byCase = new Map(results.map((r) => [r.caseId, r]));
  const fileAction = new Map<string, string>();
  for (const f of eng.files) {
    const action = run.files.find((r) => r.path === f.path)?.action;
    for (const id of f.caseIds) if (action) fileAction.set(id, action);
  }
  const unmet: VerificationRecord['unmet'] = [];
  for (const c of plan.cases) {
    if (c.priority !== 'P0' && c.priority !== 'P1') continue;
    const r = byCase.get(c.id);
    const met =
      (r && r.outcome === 'passing') ||
      (r && r.outcome !== 'failing' && !!r.reason) ||
      (!r && notWritten.has(c.id)) ||
      (!r && (fileAction.get(c.id) === 'rejected' || fileAction.get(c.id) === 'failed'));
    if (!met) unmet.push({ caseId: c.id, priority: c.priority, title: c.title });
  }
  return unmet;
}
