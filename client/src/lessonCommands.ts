// Forgetting a lesson from the Lessons view. Forgetting drops the person's decision behind it (a
// later run may write the test again), so it is their call: a modal asks first, every time.
import * as vscode from 'vscode';
import * as P from '../../server/src/protocol';
import type { Ctx } from './commands';
import { canForget, lessonScope, type LessonsNode } from './model/lessonsTree';

/** Forgets the lesson after the person confirms; true when it was forgotten. */
export async function forgetLesson(ctx: Ctx, node: LessonsNode | undefined): Promise<boolean> {
  if (node?.kind !== 'lesson') return false;
  const l = node.lesson;
  if (!canForget(l)) {
    void vscode.window.showInformationMessage('AMTP: a failed repair’s lesson is not a decision to forget; it ages out with its run.');
    return false;
  }
  const answer = await vscode.window.showWarningMessage(
    'AMTP: forget this lesson?',
    {
      modal: true,
      detail: `${l.text}\n\nAbout: ${lessonScope(l)}\n\nYour decision about this test is dropped: the next run is no longer told, and may write the test again.`,
    },
    'Forget',
  );
  if (answer !== 'Forget') return false;
  await P.sendRequest(ctx.client, P.ForgetLesson, { id: l.id });
  ctx.log(`lessons: forgot the ${l.source} lesson about ${l.id}`);
  await vscode.commands.executeCommand('amtp.refreshLessons');
  return true;
}
