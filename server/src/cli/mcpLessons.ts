// What `amtp mcp`'s tests_lessons does: the lessons as `amtp lessons` lists them (app/lessons.ts), and
// forgetting one through a gateway (app/gatedForget.ts). The calling model is not the person, and
// forgetting lets a test the person rejected come back, so `lessons.forget` is high risk: the person's
// own --risk may change that, a repository's .vscode/settings.json may only raise it. No run holds
// the approval, so the answer comes back in the tool result.
import { gatedForget } from '../app/gatedForget';
import { listLessons } from '../app/lessons';
import { UsageError, errorMessage } from '../core/errors';
import type { RiskOverrides } from '../gateway/policy';
import type { Lesson } from '../pipeline/lessons';
import type { LessonsInput, ToolCallContext, ToolOutput } from '../mcp/runTools';
import { LowdbStore } from '../store/lowdb';
import type { RunStore } from '../store/types';

export async function mcpLessons(workspace: string, risk: RiskOverrides, input: LessonsInput, ctx: ToolCallContext): Promise<ToolOutput> {
  const store = new LowdbStore(workspace);
  try {
    if (input.forget === undefined) {
      const lessons = await listLessons(store);
      return { text: lessons.map(lessonLine).join('\n') || 'no lessons', structured: { lessons } };
    }
    return await forget(store, risk, input.forget, ctx);
  } catch (e) {
    return { text: errorMessage(e), structured: {}, isError: true };
  }
}

function lessonLine(l: Lesson): string {
  return `${l.id} ${l.source} ${l.file ? `${l.file}#${l.symbol} ` : ''}${l.text}`;
}

async function forget(store: RunStore, risk: RiskOverrides, caseId: string, ctx: ToolCallContext): Promise<ToolOutput> {
  // Checked before asking: the person is never asked about a lesson that cannot be forgotten.
  const lesson = (await listLessons(store)).find((l) => l.id === caseId && l.source !== 'repair_failed');
  if (!lesson)
    throw new UsageError(
      `no lesson from a decision about ${JSON.stringify(caseId)} to forget (a failed repair's lesson ages out with its run)`,
    );
  const r = await gatedForget(store, lesson, ctx.approver, risk);
  const approval = r.approval ? { approval: { decision: r.approval.decision, by: r.approval.decidedBy } } : {};
  if (!r.forgotten)
    return {
      text: `not forgotten (${r.approval.decision}${r.approval.note ? `: ${r.approval.note}` : ''}); the lesson stands`,
      structured: { forgotten: null, ...approval },
      isError: true,
    };
  return { text: `forgot ${caseId}: the next run may plan and write it again`, structured: { forgotten: caseId, ...approval } };
}
