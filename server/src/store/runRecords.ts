// Run records are data, not control. A file under .amtp/runs may have come with the repository:
// broken JSON, a JSON value that is no run record, or another person's record. Listing the runs
// skips such files and counts them; it never fails because of one (store/lowdb.ts scanRuns).
import type { RunRecord } from '../core/run';

/** Run-record files that AMTP left aside, and why. */
export interface IgnoredRuns {
  /** whole run records that this person did not create in this workspace (their ids) */
  foreign: string[];
  /** files that do not parse or are no run record: the file name and the reason */
  unreadable: { file: string; reason: string }[];
}

const ARRAYS = ['activities', 'files', 'approvals', 'audit'] as const;
const STRINGS = ['id', 'status', 'stage', 'createdAt', 'updatedAt'] as const;

/** Why a parsed JSON value is not a run record AMTP can read, or undefined when it has a run record's shape. */
export function runRecordProblem(value: unknown): string | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return 'not a run record (not a JSON object)';
  const r = value as Record<string, unknown>;
  const missing = [
    ...STRINGS.filter((k) => typeof r[k] !== 'string'),
    ...(typeof r.version === 'number' ? [] : ['version']),
    ...(r.params && typeof r.params === 'object' ? [] : ['params']),
    ...ARRAYS.filter((k) => !Array.isArray(r[k])),
  ];
  return missing.length ? `not a run record (no valid ${missing.join(', ')})` : undefined;
}

/** Narrows a value that runRecordProblem accepted. */
export function isRunRecordShape(value: unknown): value is RunRecord {
  return runRecordProblem(value) === undefined;
}

function ignoredCount(i: IgnoredRuns): number {
  return i.foreign.length + i.unreadable.length;
}

/** One line for the person: how many records were ignored, whose, and why; undefined when none was. */
export function ignoredRunsNote(i: IgnoredRuns): string | undefined {
  if (!ignoredCount(i)) return undefined;
  const parts = [
    ...(i.foreign.length ? [`${i.foreign.length} not created by you here (${i.foreign.join(', ')})`] : []),
    ...(i.unreadable.length ? [`${i.unreadable.length} unreadable (${i.unreadable.map((u) => `${u.file}: ${u.reason}`).join('; ')})`] : []),
  ];
  return `ignoring ${ignoredCount(i)} run record(s) in .amtp/runs: ${parts.join(', ')}. They may have come with the repository; AMTP never resumes, approves or lists them.`;
}
