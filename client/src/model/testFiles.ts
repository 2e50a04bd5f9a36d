// Which tests the Testing view lists, per test file: every run's written tests, not only the latest
// run's. A scoped run (CodeLens, one file, a selection) adds to or replaces tests in a file an
// earlier run wrote; the earlier tests are still in that file and keep their items and gutter icons.
// What the file holds decides: a run's record may name tests a later write took out of the file.
import type * as P from '../../../server/src/protocol';

const WRITTEN: ReadonlySet<P.CaseStatus> = new Set(['written', 'passing', 'failing', 'flaky']);

export interface ListedTest {
  /** the run whose record holds this test's newest state (it runs the test) */
  runId: string;
  case: P.CaseView;
}

/**
 * Test files, sorted, each with its tests in file order. A case in several runs is the newest run's;
 * a newer run that dropped or did not write it (it is no longer in that file) removes it.
 */
export function testsByFile(runs: P.RunView[], read: (file: string) => string | undefined = () => undefined): [string, ListedTest[]][] {
  const oldestFirst = [...runs].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.runId.localeCompare(b.runId));
  const latest = new Map<string, { runId: string; case: P.CaseView }>();
  for (const run of oldestFirst) for (const c of run.cases) if (c.status !== 'planned') latest.set(c.id, { runId: run.runId, case: c });
  const files = new Map<string, ListedTest[]>();
  for (const t of latest.values()) {
    if (!t.case.testFile || !WRITTEN.has(t.case.status)) continue;
    files.set(t.case.testFile, [...(files.get(t.case.testFile) ?? []), t]);
  }
  return [...files]
    .map(([file, tests]): [string, ListedTest[]] => [file, inFile(read(file), tests)])
    .filter(([, tests]) => tests.length > 0)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([file, tests]) => [
      file,
      tests.sort((a, b) => (a.case.testLine ?? 0) - (b.case.testLine ?? 0) || a.case.id.localeCompare(b.case.id)),
    ]);
}

/** The tests the file holds, each at the 0-based line its case id is on (all of them when the file cannot be read). */
function inFile(text: string | undefined, tests: ListedTest[]): ListedTest[] {
  if (text === undefined) return tests;
  const lines = text.split('\n');
  return tests.flatMap((t) => {
    const line = lines.findIndex((l) => l.includes(t.case.id));
    return line < 0 ? [] : [{ ...t, case: { ...t.case, testLine: line } }];
  });
}
