// What an approved diff showed is what lands (issue 27). A person approves a file write with its
// diff; verification may then take failing, flaky, quarantined or redundant tests out of that file
// (`fs.rewrite_generated`, medium risk: no second question). After verification each approved file is
// read again, and the tests its diff showed that are gone are named with the verifier's verdict. A
// note, not a second approval: the verifier only ever takes out tests this run wrote itself.
import type { ApprovedDiffNote, RunRecord, ShownTest } from '../core/run';
import { testsInFile } from '../frameworks/caseMap';

/** The approved files that lost tests, each with the tests it lost and why; `read` gives a file's text now (null: gone). */
export async function approvedDiffNotes(run: RunRecord, read: (path: string) => Promise<string | null>): Promise<ApprovedDiffNote[]> {
  const notes: ApprovedDiffNote[] = [];
  for (const f of run.files) {
    if (!f.approved) continue;
    const text = await read(f.path);
    const now = text === null ? [] : testsInFile(f.path, text);
    const has = (t: ShownTest) => now.some((n) => (t.caseId ? n.caseId === t.caseId : !n.caseId && n.name === t.title));
    const gone = f.approved.tests.filter((t) => !has(t));
    if (!gone.length) continue;
    notes.push({
      file: f.path,
      approvalId: f.approved.approvalId,
      shown: f.approved.tests.length,
      kept: f.approved.tests.length - gone.length,
      ...(text === null ? { removed: true as const } : {}),
      dropped: gone.map((t) => droppedTest(run, t)),
    });
  }
  return notes;
}

function droppedTest(run: RunRecord, t: ShownTest): ApprovedDiffNote['dropped'][number] {
  const r = t.caseId ? run.verification?.results.find((x) => x.caseId === t.caseId) : undefined;
  if (!r) return { ...t };
  return {
    ...t,
    outcome: r.outcome,
    ...(r.reason ? { reason: r.reason } : {}),
    ...(r.outcome === 'quarantined' && r.file ? { movedTo: r.file } : {}),
  };
}

/** One line for people: the file, what the approved diff showed and kept, and each test taken out with its verdict. */
export function approvedDiffLine(n: ApprovedDiffNote): string {
  const tests = n.dropped.map((d) => `${d.caseId ? `${d.caseId} ` : ''}${JSON.stringify(d.title)} (${verdict(d)})`).join('; ');
  return `${n.file}: the diff you approved showed ${n.shown} test(s); verification ${n.removed ? 'removed the file' : `kept ${n.kept}`} and took out ${n.dropped.length}: ${tests}`;
}

function verdict(d: ApprovedDiffNote['dropped'][number]): string {
  if (d.movedTo) return `quarantined: moved to ${d.movedTo}, skipped`;
  if (!d.outcome) return 'gone after verification';
  return `${d.outcome}${d.reason ? `: ${d.reason.length > 120 ? d.reason.slice(0, 119) + '…' : d.reason}` : ''}`;
}
