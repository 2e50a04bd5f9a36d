// The measure (docs/mutation.md): mutation score = killed / (killed + survived + no coverage), per
// file and per run, with what was and was not mutated within the budget. Timeouts count as killed;
// mutants that errored, were not run or were filtered are outside the score and counted apart.
import { MAX_SURVIVORS, type MutationCounts, type MutationRecord, type SurvivingMutant } from '../core/mutation';
import type { MutantResult, MutationOutcome } from './types';

export function countMutants(mutants: MutantResult[]): MutationCounts {
  const n = (s: MutantResult['status']) => mutants.filter((m) => m.status === s).length;
  return {
    mutants: mutants.length,
    killed: n('killed'),
    timeout: n('timeout'),
    survived: n('survived'),
    noCoverage: n('no_coverage'),
    error: n('error'),
    notRun: n('not_run'),
    filtered: n('filtered'),
  };
}

/** Percent, one decimal; undefined when no mutant counts. */
export function mutationScore(c: MutationCounts): number | undefined {
  const detected = c.killed + c.timeout;
  const counted = detected + c.survived + c.noCoverage;
  return counted ? Math.round((1000 * detected) / counted) / 10 : undefined;
}

export function mutationRecord(o: MutationOutcome, budgetSeconds: number): MutationRecord {
  const counts = countMutants(o.mutants);
  const files = [...new Set([...o.files, ...o.mutants.map((m) => m.file)])].sort().map((file) => {
    const c = countMutants(o.mutants.filter((m) => m.file === file));
    return { file, ...scoreOf(c), counts: c };
  });
  const survivors = o.mutants.filter((m) => m.status === 'survived' || m.status === 'no_coverage').map(surviving);
  const filtered: Record<string, number> = {};
  for (const m of o.mutants.filter((x) => x.status === 'filtered'))
    filtered[m.reason ?? 'filtered'] = (filtered[m.reason ?? 'filtered'] ?? 0) + 1;
  return {
    status: 'done',
    tool: o.tool,
    budgetSeconds,
    seconds: Math.round(o.elapsedMs / 100) / 10,
    ...scoreOf(counts),
    counts,
    files,
    notMutated: o.failedFiles.map((f) => ({ file: f.file, reason: f.reason })),
    notRun: notRunByFile(o.mutants),
    filtered,
    kills: killsByTest(o.mutants),
    excludedTests: o.excludedTests,
    survivors: survivors.slice(0, MAX_SURVIVORS),
    ...(survivors.length > MAX_SURVIVORS ? { survivorsOmitted: survivors.length - MAX_SURVIVORS } : {}),
    executions: o.executions,
  };
}

/**
 * Counts survivors that a test added later (a coverage round's) kills as killed, in the run's and the
 * file's counts and scores, and moves them from `survivors` to that test's kills.
 */
export function addKills(record: MutationRecord, caseId: string, ids: string[]): void {
  const gone = record.survivors.filter((m) => ids.includes(m.id));
  if (!gone.length) return;
  record.survivors = record.survivors.filter((m) => !ids.includes(m.id));
  const move = (c: MutationCounts, m: SurvivingMutant) => {
    if (m.status === 'no_coverage') c.noCoverage--;
    else c.survived--;
    c.killed++;
  };
  for (const m of gone) {
    move(record.counts, m);
    const f = record.files.find((x) => x.file === m.file);
    if (!f) continue;
    move(f.counts, m);
    // a kill makes the score defined
    f.score = mutationScore(f.counts)!;
  }
  record.score = mutationScore(record.counts)!;
  record.kills[caseId] = [...(record.kills[caseId] ?? []), ...gone.map((m) => m.id)];
}

export function skippedMutation(reason: string, budgetSeconds: number): MutationRecord {
  const counts = countMutants([]);
  return {
    status: 'skipped',
    reason,
    budgetSeconds,
    seconds: 0,
    counts,
    files: [],
    notMutated: [],
    notRun: [],
    filtered: {},
    kills: {},
    excludedTests: [],
    survivors: [],
    executions: 0,
  };
}

function scoreOf(c: MutationCounts): { score?: number } {
  const score = mutationScore(c);
  return score === undefined ? {} : { score };
}

function surviving(m: MutantResult): SurvivingMutant {
  return {
    id: m.id,
    file: m.file,
    mutator: m.mutator,
    original: m.original,
    replacement: m.replacement,
    start: m.start,
    end: m.end,
    status: m.status === 'no_coverage' ? 'no_coverage' : 'survived',
    coveredBy: m.coveredBy,
  };
}

function notRunByFile(mutants: MutantResult[]): MutationRecord['notRun'] {
  const groups = new Map<string, { file: string; mutants: number; reason: string }>();
  for (const m of mutants.filter((x) => x.status === 'not_run')) {
    const reason = m.reason ?? 'not run';
    const key = `${m.file}\n${reason}`;
    const g = groups.get(key) ?? { file: m.file, mutants: 0, reason };
    g.mutants++;
    groups.set(key, g);
  }
  return [...groups.values()].sort((a, b) => a.file.localeCompare(b.file) || a.reason.localeCompare(b.reason));
}

function killsByTest(mutants: MutantResult[]): Record<string, string[]> {
  const kills: Record<string, string[]> = {};
  for (const m of mutants) if (m.status === 'killed' || m.status === 'timeout') for (const t of m.killedBy) (kills[t] ??= []).push(m.id);
  return Object.fromEntries(Object.entries(kills).sort(([a], [b]) => a.localeCompare(b)));
}
