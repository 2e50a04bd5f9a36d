// The run's verdict on its goal: every P0/P1 case whose test was written must end with a passing or a
// quarantined test. One that did not load, was flaky, hung, failed or was dropped after repair is
// unmet, with its reason, and the run ends needs_review (exit 3) instead of completed: a reason alone
// does not meet the goal. A documented example that throws where its docs show a value is reported as
// a documentation issue (verification.docIssues), a finding like a possible bug: met. A test the coverage filter removed passed every run first: that is met.
// A case the engineer did not write (its recorded not_written reason) or whose file write was
// rejected never reached the verifier; those keep the write stage's verdict (met with that reason).
import type { EngineerOutput, TestCases } from '../contracts/types';
import type { CaseResult, RunRecord, VerificationRecord } from '../core/run';

export function unmetCases(plan: TestCases, eng: EngineerOutput, run: RunRecord, results: CaseResult[]): VerificationRecord['unmet'] {
  const notWritten = new Map(eng.not_written.map((n) => [n.caseId, n.reason]));
  const byCase = new Map(results.map((r) => [r.caseId, r]));
  const fileAction = new Map<string, string>();
  // A test the person accepted, left as it was, is theirs: the run did not write it (pipeline/writePlan.ts).
  const accepted = new Set(run.files.flatMap((f) => f.acceptedKept ?? []));
  for (const f of eng.files) {
    const action = run.files.find((r) => r.path === f.path)?.action;
    for (const id of f.caseIds) if (action) fileAction.set(id, action);
  }
  const unmet: VerificationRecord['unmet'] = [];
  for (const c of plan.cases) {
    if (c.priority !== 'P0' && c.priority !== 'P1') continue;
    const r = byCase.get(c.id);
    // A documentation issue (the documented example throws) is a finding reported like a possible bug.
    if (r?.outcome === 'passing' || r?.outcome === 'quarantined' || r?.docIssue || r?.step === 'adds_coverage') continue;
    if (!r && (notWritten.has(c.id) || accepted.has(c.id) || fileAction.get(c.id) === 'rejected' || fileAction.get(c.id) === 'failed'))
      continue;
    const reason = r ? `${r.outcome}: ${r.reason ?? 'no reason recorded'}` : 'no test was written and no reason was recorded';
    unmet.push({ caseId: c.id, priority: c.priority, title: c.title, reason });
  }
  return unmet;
}
