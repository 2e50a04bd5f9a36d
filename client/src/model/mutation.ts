// Mutation analysis in the editor, from the run view alone (the server's MutationView): the score of
// each target file for the Test Cases tree, and each surviving mutant as a diagnostic on the source
// it changes. Plain data, no vscode: client/src/mutationDiagnostics.ts hands these to VS Code.
import type * as P from '../../../server/src/protocol';

/** " · mutation 78.5%" for a target file the run mutated; '' when it has no score. */
export function describeFileMutation(run: P.RunView, file: string): string {
  const f = run.verification?.mutation?.files.find((x) => x.file === file);
  return f?.score !== undefined ? ` · mutation ${f.score}%` : '';
}

/** The file's mutation counts, one line each, for its tooltip. */
export function fileMutationLines(run: P.RunView, file: string): string[] {
  const m = run.verification?.mutation;
  const f = m?.files.find((x) => x.file === file);
  if (!m || !f) return [];
  const c = f.counts;
  const notRun = m.notRun.filter((n) => n.file === file).map((n) => `${n.mutants} not run (${n.reason})`);
  return [
    `mutation score ${f.score ?? '—'}%: ${c.killed + c.timeout} killed, ${c.survived} survived, ${c.noCoverage} not covered`,
    ...notRun,
    ...(c.filtered ? [`${c.filtered} left out as equivalent-mutant noise`] : []),
  ];
}

export interface MutantDiagnostic {
  /** 0-based, as VS Code ranges are */
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
  message: string;
}

/** Each workspace-relative file's surviving mutants as diagnostics, from the run's mutation view. */
export function mutantDiagnostics(run: P.RunView | undefined): Map<string, MutantDiagnostic[]> {
  const out = new Map<string, MutantDiagnostic[]>();
  for (const s of run?.verification?.mutation?.survivors ?? []) {
    const list = out.get(s.file) ?? [];
    list.push({
      startLine: s.start.line - 1,
      startColumn: s.start.column - 1,
      endLine: s.end.line - 1,
      endColumn: s.end.column - 1,
      message: `${s.status === 'no_coverage' ? 'Mutant not covered by any kept test' : 'Surviving mutant: no kept test notices'} (${s.mutator}): ${oneLine(s.original)} → ${oneLine(s.replacement)}`,
    });
    out.set(s.file, list);
  }
  return out;
}

function oneLine(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > 80 ? `${t.slice(0, 77)}…` : t;
}
