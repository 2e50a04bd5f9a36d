// What the person decided earlier about single tests holds in this run. When the run starts, tests
// an earlier run of theirs kept in AMTP's file and that are gone from it now were deleted by hand
// (each becomes a `deleted` decision), and those changed since were edited by hand (`edited`,
// editedTests.ts); the sealed decisions are then kept in the run's params (and a recording's
// header). The 'decisions' stage, between planning and the Test Engineer, holds back the planned
// cases with a rejection, a deletion, an edit or a "the test is wrong" answer (the plan the
// engineer, the verifier and the views read leaves them out: testPlan.ts), and quarantine answers
// for code that has not changed since are recorded, so they are not asked again.
import { sha256 } from '../core/canonical';
import type { RunDecided, RunDecisions } from '../core/run';
import type { CrawlerOutput, TestCase } from '../contracts/types';
import { symbolSource } from '../agents/sources';
import { DecisionStore, HOLDS_BACK, behaviorOf, type TestDecision } from './decisions';
import { recordEdits } from './editedTests';
import { caseAbout, KeptFiles, type FindTests } from './keptTests';
import type { Stage } from './stage';
import type { RunStore } from '../store/types';
import { testPlan } from './testPlan';

type Decided = RunDecided['decisions'][number];

/**
 * The decisions that act on a run, taken when it starts (before a recording's header is written):
 * deletions and edits by hand found now are recorded first. Without `find` (a library caller), none are looked for.
 */
export async function decisionsAtStart(store: RunStore, runId: string, find?: FindTests): Promise<RunDecided> {
  const decisions = new DecisionStore(store.workspace);
  const files =
    find &&
    new KeptFiles(
      store,
      (await store.listRuns()).filter((r) => r.id !== runId),
      find,
    );
  const detected = files ? await recordDeletions(decisions, files) : [];
  const edited = files ? await recordEdits(decisions, files) : [];
  const { decisions: known, ignored } = await decisions.scan();
  return { decisions: [...known.values()].map(decidedOf), detected, ...(edited.length ? { edited } : {}), ignored: ignored.length };
}

export function decidedOf(d: TestDecision): Decided {
  return {
    caseId: d.caseId,
    verdict: d.verdict,
    ...(d.reason !== undefined ? { reason: d.reason } : {}),
    ...(d.target.sourceHash ? { sourceHash: d.target.sourceHash } : {}),
    ...(d.target.behavior ? { behavior: d.target.behavior } : {}),
    ...(d.correction ? { correction: { file: d.target.file, symbol: d.target.symbol, ...d.correction } } : {}),
  };
}

export const decisionStage: Stage = async (ctx) => {
  const { deps, state, save } = ctx;
  const run = state.run;
  if (run.status !== 'running' || run.decisions) return;
  if (run.activities.find((a) => a.agent === 'generator')?.status !== 'completed') return;
  const decided = run.params.decided ?? { decisions: [], detected: [], ignored: 0 };
  const plan = await testPlan(deps.store, run);
  const map = await deps.store.agentOutput(run, 'crawler');
  const known = new Map(decided.decisions.map((d) => [d.caseId, d]));
  const record = applyDecisions(plan.cases, known, map, decided.detected, decided.ignored);
  if (decided.edited?.length) record.detectedEdits = decided.edited;
  await save((r) => {
    r.decisions = record;
  });
};

/** Which planned cases the decisions hold back, and which quarantine answers still hold for the code as it is. */
export function applyDecisions(
  cases: TestCase[],
  known: Map<string, Decided>,
  map: CrawlerOutput,
  detectedDeletions: string[],
  ignored: number,
): RunDecisions {
  const out: RunDecisions = { heldBack: [], answered: [], detectedDeletions, ignored };
  // A held-back test also holds back a case that checks the same under other words (a model's new title).
  const holdsBack = [...known.values()].filter((d) => HOLDS_BACK.has(d.verdict) && d.behavior);
  const byBehavior = new Map(holdsBack.map((d) => [d.behavior!, d]));
  for (const c of [...cases].sort((a, b) => a.id.localeCompare(b.id))) {
    const d = known.get(c.id) ?? (byBehavior.size ? byBehavior.get(behaviorOf(c)) : undefined);
    if (!d) continue;
    const reason = d.reason !== undefined ? { reason: d.reason } : {};
    if (HOLDS_BACK.has(d.verdict))
      out.heldBack.push({ caseId: c.id, verdict: d.verdict as 'rejected' | 'deleted' | 'wrong_test' | 'edited', ...reason });
    else if ((d.verdict === 'real_bug' || d.verdict === 'docs_wrong') && sameSource(d, map, c))
      out.answered.push({ caseId: c.id, verdict: d.verdict, ...reason });
  }
  return out;
}

/** An answer about a quarantined test lapses when the target's code changed since (the bug may be fixed). */
function sameSource(d: Decided, map: CrawlerOutput, c: TestCase): boolean {
  return d.sourceHash === undefined || d.sourceHash === targetSourceHash(map, c.target.file, c.target.symbol);
}

/** sha256 of a target's declaration as the map holds it; undefined when the map lacks its text. */
export function targetSourceHash(map: CrawlerOutput, file: string, symbol: string): string | undefined {
  const sym = map.key_files.find((k) => k.path === file)?.symbols.find((s) => s.name === symbol);
  const src = sym && symbolSource(map, file, sym);
  return src ? sha256(src.code) : undefined;
}

/**
 * Tests an earlier run of this person kept in AMTP's own file that are gone from it now, each
 * recorded as a `deleted` decision (once: an existing decision about the case stands). A file that
 * is gone whole is left alone: the person removed the file, not chosen tests from it. Only this
 * person's own runs count (listRuns), so a planted run record cannot make AMTP hold tests back.
 */
async function recordDeletions(decisions: DecisionStore, files: KeptFiles): Promise<string[]> {
  const { decisions: known } = await decisions.scan();
  const detected: string[] = [];
  for (const [file, runs] of [...files.kept].sort(([a], [b]) => a.localeCompare(b))) {
    // A file gone whole or that does not parse now says nothing about which tests the person removed.
    const present = await files.testsNow(file);
    if (!present) continue;
    for (const [id, runId] of [...runs].sort(([a], [b]) => a.localeCompare(b))) {
      if (present.has(id) || known.has(id) || detected.includes(id)) continue;
      const about = caseAbout(await files.plannedCase(runId, id));
      await decisions.put({ caseId: id, verdict: 'deleted', ...about, testFile: file, runId, decidedBy: 'detected' });
      detected.push(id);
    }
  }
  return detected;
}
