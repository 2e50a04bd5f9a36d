// What a finished run prints: the summary (text, or the --json object described in docs/ci.md)
// on stdout, and on stderr what to do next when the run waits for a person.
import * as path from 'node:path';
import type { RunRecord } from '../core/run';
import { formatAgentHealth, formatRunHealth, formatRunUsage } from '../core/usageFormat';
import type { RunStore } from '../store/types';
import { EXIT } from '../core/exitCodes';
import { exitCodeFor, summarize, type RunSummary } from '../pipeline/summary';
import { applyCoverageOut, type CoverageOut } from './coverageOut';
import { err } from './io';
import { docIssueLine } from '../core/docIssues';
import { approvedDiffLine } from '../verifier/approvedDiffs';

export function summaryText(s: RunSummary): string {
  const out: string[] = [`run ${s.runId}: ${s.status}${s.reason ? ` — ${s.reason}` : ''}`];
  // A skipped verification must not read as a clean run with no failing test.
  if (s.verification?.status === 'skipped')
    out.push(`  NOT VERIFIED: the written tests were not run (${s.verification.reason ?? 'verification skipped'})`);
  for (const a of s.activities)
    out.push(
      `  ${a.agent.padEnd(9)} ${a.status.padEnd(12)} attempts=${a.attempts}${a.errors.length ? ` errors=${a.errors.map((e) => e.kind).join(',')}` : ''}`,
    );
  if (s.reuse) out.push(reuseLine(s.reuse));
  if (s.timings && Object.keys(s.timings).length)
    out.push(`  time: ${timeLine(s.timings)}${s.verification?.phases ? ` (verify: ${timeLine(s.verification.phases)})` : ''}`);
  const t = s.usage.total;
  if (t.promptTokens + t.completionTokens + (t.unreported ?? 0) > 0) out.push(`  usage: ${formatRunUsage(s.usage)}`); // the offline provider spends none
  out.push(`  health: ${formatRunHealth(s.health)}`);
  for (const h of s.health.agents) out.push(`    ${formatAgentHealth(h)}`);
  const shapeOnly = s.cases.filter((c) => c.existenceOnly).length;
  out.push(`  cases: ${s.cases.length}${shapeOnly ? ` (${shapeOnly} only check that an export exists)` : ''}`);
  const c = s.characterization;
  if (c) out.push(...characterizationLines(c));
  if (s.decisions) out.push(...decisionLines(s.decisions));
  if (s.confidence) out.push(...confidenceLines(s.confidence));
  for (const f of s.files) {
    out.push(`  ${f.action.padEnd(11)} ${f.path}`);
    if (f.acceptedKept?.length) out.push(`    kept as you accepted them (the change was not approved): ${f.acceptedKept.join(', ')}`);
  }
  if (s.confinement) out.push(`  workspace code is confined: ${s.confinement.detail}`);
  if (s.layoutNote) out.push(`  ${s.layoutNote}`);
  for (const a of s.approvals.filter((x) => x.decision === 'pending'))
    out.push(`  pending approval: ${a.tool} ${a.target ?? ''}${a.summary ? ` — ${a.summary}` : ''}`);
  if (s.verification) out.push(...verificationLines(s.verification));
  const b = s.branch;
  if (b?.status === 'created')
    out.push(`  branch: ${b.name} (${b.commit?.slice(0, 10)}) with ${b.files.length} file(s); push it with: git push origin ${b.name}`);
  else if (b) out.push(`  branch: ${b.status}${b.reason ? ` — ${b.reason}` : ''}`);
  return out.join('\n');
}

/** The confidence gate: how many kept tests cleared it, and each one that waits for review. */
function confidenceLines(c: NonNullable<RunSummary['confidence']>): string[] {
  const out = [
    `  confidence: ${c.tests.length - c.awaiting.length - c.accepted.length} of ${c.tests.length} kept test(s) at or above ${c.threshold}${c.accepted.length ? `, ${c.accepted.length} below it accepted` : ''}${c.awaiting.length ? `, ${c.awaiting.length} wait for review:` : ''}`,
  ];
  for (const t of c.awaiting) out.push(`    ${t.caseId}  ${t.confidence.toFixed(2)}  ${t.title}  (${t.file}; ${t.basis})`);
  if (c.unverified) out.push(`    ${c.unverified}`);
  return out;
}

/** Seconds per stage or phase, in the order they ran: `crawler 0.4 s, generator 1.2 s, …`. */
function timeLine(t: Record<string, number>): string {
  return Object.entries(t)
    .map(([k, v]) => `${k} ${v.toFixed(1)} s`)
    .join(', ');
}

/** What an incremental run took over from the earlier one. */
function reuseLine(r: NonNullable<RunSummary['reuse']>): string {
  if (r.unchanged) return `  incremental: nothing changed since run ${r.from}; its results stand (${r.reused} module(s)), nothing ran`;
  const changed = [...r.changed, ...r.removed.map((f) => `${f} (removed)`)];
  return `  incremental from run ${r.from}: changed ${changed.join(', ') || 'nothing'}; reached ${r.reached.length} module(s) (${r.reached.join(', ')}); reused ${r.reused} module(s) unchanged`;
}

/** What the person's earlier decisions did in this run: held-back cases by verdict, answered quarantines, deletions found. */
function decisionLines(d: NonNullable<RunSummary['decisions']>): string[] {
  const out: string[] = [];
  if (d.heldBack.length) {
    const by = (v: string) => d.heldBack.filter((h) => h.verdict === v).length;
    out.push(
      `  held back by your decisions: ${d.heldBack.length} case(s) (rejected ${by('rejected')}, deleted by hand ${by('deleted')}, wrong test ${by('wrong_test')}, changed by hand ${by('edited')}); amtp lessons forget CASE_ID brings one back`,
    );
  }
  if (d.detectedDeletions.length) out.push(`  tests you deleted from AMTP's files, not written back: ${d.detectedDeletions.join(', ')}`);
  if (d.detectedEdits?.length)
    out.push(
      `  tests you changed in AMTP's files, kept as you wrote them (amtp lessons shows what changed): ${d.detectedEdits.join(', ')}`,
    );
  for (const a of d.answered)
    out.push(
      `  answered quarantine ${a.caseId}: ${a.verdict === 'real_bug' ? 'real bug' : 'the docs are wrong'}${a.reason ? ` (${a.reason})` : ''}`,
    );
  if (d.ignored) out.push(`  ignored ${d.ignored} decision file(s) not taken by you here (they may have come with the repository)`);
  return out;
}

function verificationLines(v: NonNullable<RunSummary['verification']>): string[] {
  const out: string[] = [];
  out.push(`  verification: ${v.status}${v.reason ? ` — ${v.reason}` : ''}${v.executions ? ` (${v.executions} runner invocations)` : ''}`);
  if (v.loaderNote) out.push(`    loader: ${v.loaderNote}`);
  for (const f of v.filters)
    out.push(
      `    ${f.step.padEnd(17)} kept ${f.kept}, dropped ${f.dropped}${f.quarantined ? `, quarantined ${f.quarantined}` : ''}${f.skipped ? ` (${f.skipped})` : ''}`,
    );
  if (v.coverage.before !== undefined || v.coverage.after !== undefined)
    out.push(
      `    coverage ${v.coverage.before ?? '?'}% → ${v.coverage.after ?? '?'}% of units${v.coverage.tool ? ` (${v.coverage.tool})` : ''}`,
    );
  if (v.coverage.statements !== undefined)
    out.push(
      `    statements ${v.coverage.statements}%${v.coverage.branches !== undefined ? `, branches ${v.coverage.branches}%` : ''}${v.coverage.beyondImport !== undefined ? `, beyond import ${v.coverage.beyondImport}%` : ''}`,
    );
  if (v.coverage.productFiles !== undefined)
    out.push(
      `    over all ${v.coverage.productFiles} product file(s); ${v.coverage.untestedFiles?.length ?? 0} have no test at all${v.coverage.untestedFiles?.length ? ` (${v.coverage.untestedFiles.slice(0, 5).join(', ')}${v.coverage.untestedFiles.length > 5 ? ', …' : ''})` : ''}`,
    );
  for (const r of v.rounds ?? [])
    out.push(
      `    coverage round ${r.round}: ${r.targets} function(s) with uncovered code, ${r.batches} batch(es), ${r.written} new test(s), ${r.kept} kept`,
    );
  if (v.roundsStopped) out.push(`    coverage rounds stopped: ${v.roundsStopped}`);
  if (v.coverage.target) out.push(`    --min-coverage ${v.coverage.target.min}%: ${v.coverage.target.met ? 'met' : 'NOT met'}`);
  if (v.mutation) out.push(...mutationLines(v.mutation));
  for (const f of v.coverage.written ?? []) out.push(`    coverage written to ${f}`);
  for (const t of v.style ?? [])
    out.push(
      t.passed
        ? `    ${t.tool}: the written files pass the project's own config`
        : `    ${t.tool}: the written files do not pass the project's own config after fixing what it fixes; left for you:\n${(t.problems ?? '').replace(/^/gm, '      ')}`,
    );
  for (const d of v.docIssues) out.push(`    documentation issue ${d.caseId}: ${docIssueLine(d)}`);
  for (const n of v.afterApproval ?? []) out.push(`    NOTE after your approval: ${approvedDiffLine(n)}`);
  for (const r of v.results.filter((x) => x.outcome !== 'passing')) out.push(`    ${r.outcome.padEnd(11)} ${r.caseId}: ${r.reason ?? ''}`);
  for (const u of v.unmet) out.push(`    unmet goal ${u.priority} ${u.caseId}: ${u.title}${u.reason ? ` (${u.reason})` : ''}`);
  return out;
}

/** The mutation score and what was and was not mutated within the budget (docs/mutation.md). */
function mutationLines(m: NonNullable<NonNullable<RunSummary['verification']>['mutation']>): string[] {
  if (m.status === 'skipped') return [`    mutation: skipped — ${m.reason ?? ''}`];
  const c = m.counts;
  const out = [
    `    mutation score ${m.score ?? '—'}%: ${c.killed + c.timeout} killed, ${c.survived} survived, ${c.noCoverage} not covered, of ${c.mutants - c.filtered - c.notRun - c.error} mutants in ${m.files.length} file(s); ${m.seconds} s of a ${m.budgetSeconds} s budget`,
  ];
  if (m.budgetNote) out.push(`    mutation budget: ${m.budgetNote}`);
  for (const f of m.files) if (f.score !== undefined) out.push(`      ${f.file}: ${f.score}%`);
  if (c.notRun)
    out.push(
      `    not mutated within the budget: ${c.notRun} mutant(s): ${m.notRun.map((n) => `${n.file} ${n.mutants} (${n.reason})`).join('; ')}`,
    );
  for (const f of m.notMutated) out.push(`    not mutated: ${f.file} (${f.reason})`);
  const filtered = Object.entries(m.filtered);
  if (filtered.length) out.push(`    left out as equivalent-mutant noise: ${filtered.map(([why, n]) => `${n} ${why}`).join(', ')}`);
  if (c.error) out.push(`    ${c.error} mutant(s) could not be run`);
  if (m.excludedTests.length)
    out.push(
      `    ${m.excludedTests.length} test(s) not run against mutants (e.g. ${m.excludedTests[0].caseId}: ${m.excludedTests[0].reason})`,
    );
  if (m.target) out.push(`    --min-mutation-score ${m.target.min}%: ${m.target.met ? 'met' : 'NOT met'}`);
  return out;
}

/** Tells a person (or a CI log) why nothing risky happened and the two ways on. */
function waitingHint(s: RunSummary, workspace: string): string | undefined {
  if (s.status !== 'awaiting_approval') return undefined;
  const pending = s.approvals.filter((a) => a.decision === 'pending');
  const dir = path.relative(process.cwd(), workspace) || '.';
  return [
    `amtp: run ${s.runId} waits for approval of ${pending.length} high-risk action(s): ${[...new Set(pending.map((a) => a.tool))].join(', ')}; none of them has been done.`,
    `amtp: decide with \`amtp approve ${s.runId} ${dir}\` (or --reject), or approve up front with --yes.`,
    'amtp: with no TTY (CI) nobody can be asked: see docs/ci.md for an approval policy.',
  ].join('\n');
}

export async function finish(
  run: RunRecord,
  store: RunStore,
  workspace: string,
  json: boolean | undefined,
  coverage?: CoverageOut,
): Promise<number> {
  const s = await summarize(run, store);
  const missed = coverage ? applyCoverageOut(run, s, workspace, coverage) : undefined;
  process.stdout.write((json ? JSON.stringify(s) : summaryText(s)) + '\n');
  const hint = waitingHint(s, workspace);
  if (hint) err(hint);
  const code = exitCodeFor(run.status);
  if (code !== EXIT.ok || !missed) return code;
  return missed === 'coverage' ? EXIT.coverageBelowTarget : EXIT.mutationBelowTarget;
}

/** The characterize stage in the text summary: what it pinned, and what the search of call sequences did. */
function characterizationLines(c: NonNullable<RunSummary['characterization']>): string[] {
  if (c.status !== 'done') return [`  characterization: ${c.status}${c.reason ? ` — ${c.reason}` : ''}`];
  const kept = c.kept !== undefined ? `; ${c.kept} kept after verification` : '';
  const seq = c.sequences
    ? `, ${c.sequences.planned} of them call sequences${c.sequences.kept !== undefined ? ` (${c.sequences.kept} kept)` : ''}`
    : '';
  const out = [
    `  characterization: ${c.planned} test(s) pin current behaviour of ${c.targets} function(s), class(es) and method(s)${seq}, replacing ${c.replaced} existence check(s)${kept}${c.seconds !== undefined ? ` in ${c.seconds} s` : ''}`,
  ];
  const x = c.search;
  if (x) {
    out.push(
      `    search: ${x.executed} of ${x.runs} sequence runs (budget ${x.budgetSeconds} s) over ${x.modules} module(s), reaching ${x.reached} of ${x.probes} statements and branches in the files they loaded; ${x.sideEffects} run(s) not pinned for side effects`,
    );
    for (const m of x.notLoaded) out.push(`    search: did not load ${m}`);
  }
  if (c.clockCut?.length)
    out.push(
      `    search: the wall-clock safety stop cut ${c.clockCut.length} module(s) short (${c.clockCut.join(', ')}): what they kept depends on this machine's speed`,
    );
  return out;
}
