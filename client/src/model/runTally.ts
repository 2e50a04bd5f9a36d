// What a run left on disk, counted the same way in the toast, the status bar and the Test Cases
// tree: tests kept in files apart from quarantined, dropped, not written and merely planned cases.
// A run plans far more cases than it keeps; showing "214 cases, 48 file(s)" when 102 tests in 31
// files are on disk misleads, so every count here names what it counts.
import type * as P from '../../../server/src/protocol';

/** The statuses of a test that is in a file and runs (the verifier kept it, or there was no verify stage). */
const KEPT: ReadonlySet<P.CaseStatus> = new Set(['written', 'passing', 'failing', 'flaky']);

export interface RunTally {
  /** tests in the run's files that run */
  kept: number;
  /** distinct files that hold the kept tests */
  keptFiles: number;
  /** tests kept skipped, in a quarantine file or with a note */
  quarantined: number;
  /** tests the verifier removed from their files */
  dropped: number;
  /** cases the engineer did not write, or whose file was not written */
  notWritten: number;
  /** every case the generator planned */
  planned: number;
}

export function isKept(c: P.CaseView): boolean {
  return KEPT.has(c.status);
}

export function runTally(run: P.RunView): RunTally {
  const kept = run.cases.filter(isKept);
  return {
    kept: kept.length,
    keptFiles: new Set(kept.map((c) => c.testFile ?? c.target.file)).size,
    quarantined: run.cases.filter((c) => c.status === 'quarantined').length,
    dropped: run.cases.filter((c) => c.status === 'dropped').length,
    notWritten: run.cases.filter((c) => c.status === 'not_written').length,
    planned: run.cases.length,
  };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "102 tests kept in 31 files · 4 quarantined · 60 dropped · 48 not written (214 planned)". */
export function describeTally(t: RunTally): string {
  if (t.planned === 0) return 'no cases planned';
  const apart = [
    t.quarantined && `${t.quarantined} quarantined`,
    t.dropped && `${t.dropped} dropped`,
    t.notWritten && `${t.notWritten} not written`,
  ].filter(Boolean);
  return [`${plural(t.kept, 'test')} kept in ${plural(t.keptFiles, 'file')}`, ...apart].join(' · ') + ` (${t.planned} planned)`;
}

/** The one line a finished run's message shows; the reason's detail goes behind "Show details". */
export function outcomeLine(run: P.RunView): string {
  const first = run.reason?.split(/(?<=[.;:])\s|\n/)[0]?.trim();
  const short = first && first.length > 120 ? `${first.slice(0, 117)}…` : first;
  return `AMTP run ${run.status.replace('_', ' ')}: ${describeTally(runTally(run))}${short ? ` — ${short}` : ''}`;
}

/** What the run was about and when: "--only src/a.js#f · 14 Nov 09:30" or "workspace · …". */
export function runLabel(run: P.RunView): string {
  const when = new Date(run.createdAt);
  const time = Number.isNaN(when.getTime()) ? run.createdAt : `${when.toISOString().slice(0, 10)} ${when.toISOString().slice(11, 16)} UTC`;
  return `${run.params.scope ?? 'workspace'} · ${time}`;
}
