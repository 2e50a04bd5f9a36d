// Pure parts of the Testing view's items: which test files it lists (AMTP's, from the run records,
// and the workspace's own, which the server finds: amtp/workspaceTestFiles), the ids of the tests a
// person wrote, which file events change the list, and how a run's tests are split by who runs them.
import type * as P from '../../../server/src/protocol';

/** At most this many test files are listed: a large repository must not flood the view or the server. */
const MAX_LISTED_FILES = 300;

/** The Testing view's id of a test a person wrote: its file and full name. */
export function ownTestId(file: string, t: { name: string; suites: string[] }): string {
  return `own:${file}::${[...t.suites, t.name].join(' ')}`;
}

/** The Testing view's id of a test file's item. */
export function fileItemId(file: string): string {
  return `file:${file}`;
}

/** Sorts children in file order: the 0-based line, zero-padded. */
export function lineSortText(line: number): string {
  return String(line).padStart(6, '0');
}

export interface ListedFile {
  file: string;
  /** AMTP wrote it (a run record lists it): its cases come from the records, the person's tests from the file */
  amtp: boolean;
}

/** AMTP's test files and the workspace's, once each, sorted; the workspace's cut at `max` (AMTP's always listed). */
export function listedFiles(amtpFiles: Iterable<string>, workspaceFiles: readonly string[], max = MAX_LISTED_FILES): ListedFile[] {
  const amtp = new Set(amtpFiles);
  const theirs = workspaceFiles.filter((f) => !amtp.has(f)).slice(0, Math.max(0, max - amtp.size));
  return [...[...amtp].map((file) => ({ file, amtp: true })), ...theirs.map((file) => ({ file, amtp: false }))].sort((a, b) =>
    a.file.localeCompare(b.file),
  );
}

const CODE_FILE = /\.(?:[cm]?[jt]sx?|py)$/;
const SKIPPED = /(^|\/)(node_modules|\.amtp|\.git)(\/|$)/;

/** Whether a created or deleted file may change the list of test files (a code file outside dependencies and AMTP's records). */
export function mayBeTestFile(relPath: string): boolean {
  return CODE_FILE.test(relPath) && !SKIPPED.test(relPath);
}

/** The person's own tests of files no run wrote, grouped for one request: every file, and the tests when only some were asked for. */
export function ownFilesRequest(tests: readonly P.OwnTest[], whole: boolean): Pick<P.RunTestsParams, 'files' | 'ownTests'> {
  const files = [...new Set(tests.map((t) => t.file))].sort();
  return whole ? { files } : { files, ownTests: [...tests] };
}
