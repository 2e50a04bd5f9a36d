// A quarantined test the person answers "docs are wrong" is a documentation issue of the run they
// answered in: kept on its verification result (`docIssue`, reportedBy person, with their note), so
// the run's summary, MCP and VS Code's run view report it with the verifier's own. Later runs that
// quarantine the test again report it from the decision (core/docIssues.ts).
import type { TestCase } from '../contracts/types';
import type { RunDocIssue } from '../core/docIssues';
import type { DocIssue } from '../core/run';
import type { TestDecision } from '../pipeline/decisions';
import type { RunStore } from '../store/types';

export async function reportDocsWrong(
  store: RunStore,
  runId: string,
  decided: TestDecision[],
  plan: Map<string, TestCase>,
): Promise<RunDocIssue[]> {
  const wrong = new Map(decided.filter((d) => d.verdict === 'docs_wrong').map((d) => [d.caseId, d]));
  if (!wrong.size) return [];
  const release = await store.lockRun(runId);
  try {
    const run = await store.getOwnRun(runId);
    const v = run.verification;
    if (!v) return [];
    const out: RunDocIssue[] = [];
    const results = v.results.map((r) => {
      const d = wrong.get(r.caseId);
      const c = plan.get(r.caseId);
      if (!d || r.outcome !== 'quarantined' || !c) return r;
      const docIssue: DocIssue = { ...(r.finding ?? fromCase(c)), reportedBy: 'person', ...(d.reason ? { note: d.reason } : {}) };
      out.push({ caseId: r.caseId, ...docIssue });
      return { ...r, docIssue };
    });
    if (out.length) await store.saveRun({ ...run, verification: { ...v, results } });
    return out;
  } finally {
    await release();
  }
}

/** What the plan says was documented, for a result the verifier kept no finding on (an older run). */
function fromCase(c: TestCase): DocIssue {
  return {
    symbol: c.target.symbol,
    file: c.target.file,
    call: c.oracle?.call ?? c.title,
    documented: c.oracle?.expected ?? c.expected.join('; '),
    ...(c.evidence?.location ? { where: `${c.evidence.source} ${c.evidence.location}` } : {}),
  };
}
