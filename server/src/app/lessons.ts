// Lessons as a person sees them (`amtp lessons`, the MCP tool `tests_lessons`, VS Code's Lessons
// view through amtp/lessons and amtp/forgetLesson, client/src/lessonsView.ts): what the next run's
// generator and engineer will be told, and forgetting one. A lesson from a decision is forgotten by
// forgetting the decision (the next run may write the test again); one from a failed repair ages
// out with the runs it came from.
// Over MCP (app/gatedForget.ts) a forget waits for the person's confirmation: lessons.forget is
// high risk, and a repository cannot lower it.
import { UsageError } from '../core/errors';
import { DecisionStore } from '../pipeline/decisions';
import { currentLessons, type Lesson } from '../pipeline/lessons';
import type { RunStore } from '../store/types';

export function listLessons(store: RunStore): Promise<Lesson[]> {
  return currentLessons(store);
}

export async function forgetLesson(store: RunStore, caseId: string): Promise<void> {
  if (!(await new DecisionStore(store.workspace).forget(caseId)))
    throw new UsageError(`no decision about ${caseId} to forget (a failed repair's lesson ages out with its run)`);
}
