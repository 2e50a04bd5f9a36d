// A run's documentation issues, the one list the CLI summary, MCP and VS Code's run view show:
// documented examples that throw (the verifier's), and quarantined tests the person answered "docs
// are wrong", whether answered in review of this run (kept on its result) or earlier, in a decision
// this run applied to a test it quarantined again.
import type { RunRecord } from './run';
import type { DocIssue } from './verification';

export type RunDocIssue = { caseId: string } & DocIssue;

export function docIssuesOf(run: RunRecord): RunDocIssue[] {
  const answered = new Map((run.decisions?.answered ?? []).filter((a) => a.verdict === 'docs_wrong').map((a) => [a.caseId, a]));
  return (run.verification?.results ?? []).flatMap((r): RunDocIssue[] => {
    if (r.docIssue) return [{ caseId: r.caseId, ...r.docIssue }];
    const a = answered.get(r.caseId);
    if (!a || r.outcome !== 'quarantined' || !r.finding) return [];
    return [{ caseId: r.caseId, ...r.finding, reportedBy: 'person', ...(a.reason ? { note: a.reason } : {}) }];
  });
}

/** One line for a person: where, the documented call and value, and what the code does instead. */
export function docIssueLine(d: RunDocIssue): string {
  const does = d.error
    ? `it throws ${JSON.stringify(d.error)}`
    : d.actual !== undefined
      ? `it returns ${d.actual}`
      : 'the code does otherwise';
  const who = d.reportedBy === 'person' ? ` — you said the docs are wrong${d.note ? `: ${d.note}` : ''}` : '';
  return `${d.symbol} (${d.file}): documented ${d.call} → ${d.documented}${d.where ? ` (${d.where})` : ''}; ${does}${who}`;
}
