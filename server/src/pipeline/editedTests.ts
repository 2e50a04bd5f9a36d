// Tests a person changed by hand in AMTP's own file (issue 27). When a run starts, each test an
// earlier run of theirs left there is compared with the text that run's verification ended with
// (verification.keptTexts, verifier/keptTexts.ts), layout aside. A changed one becomes an `edited`
// decision: the person's version stays exactly as it is (the case is held back, and a merge keeps
// it), what they changed is a lesson, and a changed expected value is a correction later cases of
// the same call take as their oracle (testPlan.ts).
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { RunRecord } from '../core/run';
import type { DecisionStore } from './decisions';
import { correctionOf, editSummary, sameTest } from './editDiff';
import { caseAbout, keptTests, plannedCase, type FindTests } from './keptTests';
import type { RunStore } from '../store/types';

/** Records an `edited` decision for each such test (an accepted one included); returns their case ids. */
export async function recordEdits(store: RunStore, decisions: DecisionStore, runs: RunRecord[], find: FindTests): Promise<string[]> {
  const { decisions: known } = await decisions.scan();
  const wrote = new Map(runs.map((r) => [r.id, r]));
  const edited: string[] = [];
  for (const [file, ids] of [...keptTests(runs)].sort(([a], [b]) => a.localeCompare(b))) {
    const now = await testsNow(store.workspace, file, find);
    if (!now) continue;
    for (const [id, runId] of [...ids].sort(([a], [b]) => a.localeCompare(b))) {
      const before = wrote.get(runId)?.verification?.keptTexts?.find((k) => k.file === file && k.caseId === id)?.text;
      const after = now.get(id);
      const decided = known.get(id)?.verdict;
      if (before === undefined || after === undefined || sameTest(before, after) || (decided && decided !== 'accepted')) continue;
      const c = await plannedCase(store, runId, id);
      const correction = c && correctionOf(before, after, c);
      await decisions.put({
        caseId: id,
        verdict: 'edited',
        reason: editSummary(before, after),
        ...(await caseAbout(store, runId, id)),
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

/** Each case's test text in the file now; undefined when the file is gone or does not parse. */
async function testsNow(workspace: string, file: string, find: FindTests): Promise<Map<string, string> | undefined> {
  const text = await fsp.readFile(path.join(workspace, file), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const out = new Map<string, string>();
    for (const t of find(file, text)) out.set(t.caseId, [out.get(t.caseId), t.text].filter(Boolean).join('\n'));
    return out;
  } catch {
    return undefined; // a file that does not parse says nothing about what the person changed
  }
}
