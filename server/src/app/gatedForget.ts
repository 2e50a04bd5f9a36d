// Forgetting a lesson when the caller is not the person (MCP's tests_lessons): the person's decision
// behind it is forgotten only through a gateway, as `lessons.forget` (high risk by default), under the
// person's own risk overrides and the repository's, which can only raise it. No run holds the
// approval, so it is returned to the caller.
import type { ApprovalRecord } from '../core/run';
import { Gateway, type Approver } from '../gateway/gateway';
import type { RiskOverrides } from '../gateway/policy';
import type { Lesson } from '../pipeline/lessons';
import type { RunStore } from '../store/types';
import { forgetLesson } from './lessons';
import { runPolicy } from './policy';

export type GatedForget = { forgotten: true; approval?: ApprovalRecord } | { forgotten: false; approval: ApprovalRecord };

export async function gatedForget(store: RunStore, lesson: Lesson, approver: Approver, risk: RiskOverrides = {}): Promise<GatedForget> {
  const { riskPolicy } = await runPolicy(store.workspace, risk);
  const approvals: ApprovalRecord[] = [];
  const log = { approval: (a: ApprovalRecord) => void approvals.push(a), audit: () => undefined };
  const where = lesson.file ? ` in ${lesson.file}#${lesson.symbol}` : '';
  const summary = `Forget the lesson about ${lesson.id} (${lesson.source}${where}): the next run may plan and write that test again`;
  const r = await new Gateway('', approver, log, riskPolicy).execute('lessons.forget', { summary, target: lesson.id }, () =>
    forgetLesson(store, lesson.id),
  );
  return r.ran ? { forgotten: true, ...(approvals[0] ? { approval: approvals[0] } : {}) } : { forgotten: false, approval: r.approval };
}
