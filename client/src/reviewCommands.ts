// Per-test review from the Test Cases tree: keep a test, reject it with an optional reason, or
// answer a quarantined one (real bug, docs are wrong, test is wrong). Each goes to the server's
// `amtp/review` (server/src/app/review.ts), the same application layer as `amtp review` and MCP.
import * as vscode from 'vscode';
import * as P from '../../server/src/protocol';
import type { TreeNode } from './model/runsModel';
import type { Ctx } from './commands';

type Verdict = P.ReviewParams['decisions'][number]['verdict'];
type CaseNode = Extract<TreeNode, { kind: 'case' }>;

const ANSWERS: { label: string; verdict: Verdict; detail: string }[] = [
  { label: 'Real bug', verdict: 'real_bug', detail: 'the code is wrong: the test stays quarantined and skipped with your note' },
  {
    label: 'Docs are wrong',
    verdict: 'docs_wrong',
    detail: 'reported as a documentation issue; not asked again while the code is unchanged',
  },
  { label: 'Test is wrong', verdict: 'wrong_test', detail: 'removed, never written back, and a lesson for the next run' },
];

/** Sends one decision about the case; undefined when the person cancelled the reason box or the node is no case. */
export async function decideTest(
  ctx: Ctx,
  node: TreeNode | undefined,
  verdict: Verdict,
  reason?: string,
): Promise<P.ReviewResult | undefined> {
  if (node?.kind !== 'case') return undefined;
  const asked = reason ?? (verdict === 'accepted' ? '' : await askReason(node, verdict));
  if (asked === undefined) return undefined;
  const result = await P.sendRequest(ctx.client, P.Review, {
    runId: node.runId,
    decisions: [{ caseId: node.case.id, verdict, ...(asked.trim() ? { reason: asked.trim() } : {}) }],
  });
  const removed = result.removed.reduce((n, r) => n + r.caseIds.length, 0);
  ctx.log(
    `review: ${node.case.id} ${verdict}${asked.trim() ? ` (${asked.trim()})` : ''}${removed ? `; removed from ${result.removed[0].file}` : ''}`,
  );
  void vscode.window.showInformationMessage(
    `AMTP: ${node.case.title} — ${verdict.replace('_', ' ')}${removed ? ', removed from its file' : ''}. Later runs keep this decision.`,
  );
  const { runs } = await P.sendRequest(ctx.client, P.Runs, null);
  ctx.model.replaceAll(runs);
  // A rejection or an answer is a lesson for the next run: the Lessons view shows it now.
  void vscode.commands.executeCommand('amtp.refreshLessons');
  return result;
}

/** Picks the answer to a quarantined test (or takes the one given, with its reason), then sends it. */
export async function answerQuarantine(
  ctx: Ctx,
  node: TreeNode | undefined,
  verdict?: Verdict,
  reason?: string,
): Promise<P.ReviewResult | undefined> {
  if (node?.kind !== 'case') return undefined;
  if (verdict && ANSWERS.some((a) => a.verdict === verdict)) return decideTest(ctx, node, verdict, reason);
  const pick = await vscode.window.showQuickPick(ANSWERS, {
    title: `AMTP: ${node.case.title}`,
    placeHolder: 'What does this failing test show?',
  });
  return pick ? decideTest(ctx, node, pick.verdict) : undefined;
}

function askReason(node: CaseNode, verdict: Verdict): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title: `AMTP: ${verdict.replace('_', ' ')} — ${node.case.title}`,
    prompt: 'Why? (optional; the next run is told, as a lesson)',
    validateInput: (v) => (v.length > 500 ? 'at most 500 characters' : undefined),
  });
}
