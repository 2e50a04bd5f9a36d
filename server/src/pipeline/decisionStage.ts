// What the person decided earlier about single tests holds in this run. When the run starts, tests
// an earlier run of theirs kept in AMTP's file and that are gone from it now were deleted by hand:
// each becomes a `deleted` decision; the sealed decisions are then kept in the run's params (and a
// recording's header). The 'decisions' stage, between planning and the Test Engineer, holds back the
// planned cases with a rejection, a deletion or a "the test is wrong" answer are held back (the
// plan the engineer, the verifier and the views read leaves them out: testPlan.ts), and quarantine
// answers for code that has not changed since are recorded, so they are not asked again.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { sha256 } from '../core/canonical';
import { isWritten, type RunDecided, type RunDecisions, type RunRecord } from '../core/run';
import type { CrawlerOutput, TestCase } from '../contracts/types';
import { symbolSource } from '../agents/sources';
import { DecisionStore, HOLDS_BACK, behaviorOf, oneLine, type TestDecision } from './decisions';
import type { Stage } from './stage';
import type { RunStore } from '../store/types';
import { testPlan } from './testPlan';

/** The case ids of the tests in a test file, read on its syntax tree (verifier/testFile.ts findTests); throws when it does not parse. */
export type FindCaseIds = (path: string, content: string) => string[];

type Decided = RunDecided['decisions'][number];

/**
 * The decisions that act on a run, taken when it starts (before a recording's header is written):
 * deletions by hand found now are recorded first. Without `find` (a library caller), none are looked for.
 */
export async function decisionsAtStart(store: RunStore, runId: string, find?: FindCaseIds): Promise<RunDecided> {
  const decisions = new DecisionStore(store.workspace);
  const detected = find ? await recordDeletions(store, decisions, runId, find) : [];
  const { decisions: known, ignored } = await decisions.scan();
  return { decisions: [...known.values()].map(decidedOf), detected, ignored: ignored.length };
}

export function decidedOf(d: TestDecision): Decided {
  return {
    caseId: d.caseId,
    verdict: d.verdict,
    ...(d.reason !== undefined ? { reason: d.reason } : {}),
    ...(d.target.sourceHash ? { sourceHash: d.target.sourceHash } : {}),
    ...(d.target.behavior ? { behavior: d.target.behavior } : {}),
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
      out.heldBack.push({ caseId: c.id, verdict: d.verdict as 'rejected' | 'deleted' | 'wrong_test', ...reason });
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
async function recordDeletions(store: RunStore, decisions: DecisionStore, currentRunId: string, find: FindCaseIds): Promise<string[]> {
  const { decisions: known } = await decisions.scan();
  const kept = keptTests((await store.listRuns()).filter((r) => r.id !== currentRunId));
  const detected: string[] = [];
  for (const [file, runs] of [...kept].sort(([a], [b]) => a.localeCompare(b))) {
    const text = await fsp.readFile(path.join(store.workspace, file), 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    let present: Set<string>;
    try {
      present = new Set(find(file, text));
    } catch {
      continue; // a file that does not parse now says nothing about which tests the person removed
    }
    for (const [id, runId] of [...runs].sort(([a], [b]) => a.localeCompare(b))) {
      if (present.has(id) || known.has(id) || detected.includes(id)) continue;
      const about = await caseOf(store, runId, id);
      await decisions.put({ caseId: id, verdict: 'deleted', ...about, testFile: file, runId, decidedBy: 'detected' });
      detected.push(id);
    }
  }
  return detected;
}

/**
 * Each file's tests that AMTP left there, by case id with the run that left it. Runs are read oldest
 * first and the latest run that wrote a case decides: a test a later run's verifier dropped or a later
 * run held back is not "deleted by hand", and a run whose verification has not settled says nothing.
 */
function keptTests(runs: RunRecord[]): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const run of runs) {
    const v = run.verification;
    const settled = v ? v.status === 'done' || v.status === 'skipped' : run.status === 'completed';
    for (const f of run.files) {
      if (!isWritten(f.action)) continue;
      const ids = out.get(f.path) ?? new Map<string, string>();
      const passing = new Set(
        v?.status === 'done'
          ? v.results.filter((r) => r.outcome === 'passing' && (r.file ?? f.path) === f.path).map((r) => r.caseId)
          : f.caseIds,
      );
      for (const id of f.caseIds) {
        if (settled && passing.has(id)) ids.set(id, run.id);
        else ids.delete(id);
      }
      out.set(f.path, ids);
    }
    // A case a later run held back is no test of AMTP's any more: once its decision is forgotten, it may come back.
    for (const h of run.decisions?.heldBack ?? []) for (const ids of out.values()) ids.delete(h.caseId);
  }
  return out;
}

/** What a decision says about the case it is about: its target and title, as the run that planned it had them. */
async function caseOf(store: RunStore, runId: string, caseId: string): Promise<Pick<TestDecision, 'target' | 'title'>> {
  const run = await store.getRun(runId);
  const plan = run && (await testPlan(store, { ...run, decisions: undefined }).catch(() => undefined));
  const c = plan?.cases.find((x) => x.id === caseId);
  return c
    ? { target: { file: c.target.file, symbol: c.target.symbol, behavior: behaviorOf(c) }, title: oneLine(c.title, 300) }
    : { target: { file: '', symbol: '' } };
}
