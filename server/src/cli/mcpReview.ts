// What `amtp mcp`'s tests_review does: the one application layer (app/review.ts), with the approver
// the MCP layer built for the call. The calling model is not the person: decisions are taken only
// once the person confirmed them through the client (elicitation).
import { applyReview, reviewList } from '../app/review';
import { errorMessage } from '../core/errors';
import { docIssueLine } from '../core/docIssues';
import type { ReviewInput, ToolCallContext, ToolOutput } from '../mcp/runTools';
import { LowdbStore } from '../store/lowdb';

export async function mcpReview(workspace: string, input: ReviewInput, ctx: ToolCallContext): Promise<ToolOutput> {
  const store = new LowdbStore(workspace);
  try {
    if (!input.decisions?.length) {
      const list = await reviewList(store, input.runId);
      const text = list.tests.map((t) => `${t.caseId} ${t.outcome} ${t.title}${t.decision ? ` [${t.decision.verdict}]` : ''}`).join('\n');
      return { text: text || `run ${list.runId} planned no test`, structured: { ...list } };
    }
    const result = await applyReview(store, input.runId, input.decisions, 'mcp', ctx.approver);
    const text = [
      ...result.decided.map((d) => `${d.caseId}: ${d.verdict}${d.reason ? ` (${d.reason})` : ''}`),
      ...result.removed.map((r) => `removed ${r.caseIds.length} test(s) from ${r.file}`),
      ...result.skipped.map((s) => `marked ${s.caseIds.length} quarantined test(s) skipped in ${s.file}`),
      ...(result.docIssues ?? []).map((d) => `documentation issue ${d.caseId}: ${docIssueLine(d)}`),
    ].join('\n');
    return { text, structured: { ...result } };
  } catch (e) {
    return { text: errorMessage(e), structured: {}, isError: true };
  }
}
