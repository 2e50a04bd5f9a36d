// Tests a person changed by hand in AMTP's own file (issue 27). When a run starts, each test an
// earlier run of theirs left there is compared with the text that run's verification ended with
// (verification.keptTexts, verifier/keptTexts.ts), layout aside. A changed one becomes an `edited`
// decision: the person's version stays exactly as it is (the case is held back, and a merge keeps
// it), what they changed is a lesson, and a changed expected value is a correction later cases of
// the same call take as their oracle (testPlan.ts).
import type { DecisionStore } from './decisions';
import { correctionOf, editSummary, sameTest } from './editDiff';
import { caseAbout, type KeptFiles } from './keptTests';

/** Records an `edited` decision for each such test (an accepted one included); returns their case ids. */
export async function recordEdits(decisions: DecisionStore, files: KeptFiles): Promise<string[]> {
  const { decisions: known } = await decisions.scan();
  const edited: string[] = [];
  for (const [file, ids] of [...files.kept].sort(([a], [b]) => a.localeCompare(b))) {
    const now = await files.testsNow(file);
    if (!now) continue;
    for (const [id, runId] of [...ids].sort(([a], [b]) => a.localeCompare(b))) {
      const before = files.keptText(runId, file, id);
      const after = now.get(id);
      const decided = known.get(id)?.verdict;
      if (before === undefined || after === undefined || sameTest(before, after) || (decided && decided !== 'accepted')) continue;
      const c = await files.plannedCase(runId, id);
      const correction = c && correctionOf(before, after, c);
      await decisions.put({
        caseId: id,
        verdict: 'edited',
        reason: editSummary(before, after),
        ...caseAbout(c),
        ...(correction ? { correction } : {}),
        testFile: file,
        runId,
        decidedBy: 'detected',
      });
      edited.push(id);
    }
  }
  return edited;
}
