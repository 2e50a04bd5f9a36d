// Per-test review, the one application layer the CLI (`amtp review`), the MCP tool (`tests_review`)
// and the VS Code client (`amtp/review`) call: list a run's tests with their outcome and the
// person's decision, and decide about single tests. A decision is kept sealed in the store
// (pipeline/decisions.ts) and holds in every later run. A rejected test (or one the person says is
// wrong) is removed from AMTP's file now; a quarantined test answered "real bug" stays quarantined,
// skipped, with the person's note; one answered "docs are wrong" becomes a documentation issue of
// the run (app/docsWrong.ts). Only files this run wrote (or quarantined into) are touched.
import { promises as fsp } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { sha256 } from '../core/canonical';
import { UsageError } from '../core/errors';
import type { CaseOutcome, RunRecord } from '../core/run';
import type { TestCase } from '../contracts/types';
import type { Approver } from '../gateway/gateway';
import { DecisionStore, behaviorOf, isCaseId, oneLine, type TestDecision, type Verdict } from '../pipeline/decisions';
import { awaitingReason } from '../pipeline/confidenceStage';
import { targetSourceHash } from '../pipeline/decisionStage';
import type { RunStore } from '../store/types';
import { testPlan } from '../pipeline/testPlan';
import { atomicWrite, protectedPath, resolveInside, workspaceRelative } from '../util/safePath';
import { realBugNote, removeTests, skipTests } from '../verifier/testFile';
import type { RunDocIssue } from '../core/docIssues';
import { reportDocsWrong } from './docsWrong';

export interface ReviewTest {
  caseId: string;
  title: string;
  priority: string;
  target: { file: string; symbol: string };
  /** where the test is (its quarantine file when quarantined) */
  file?: string;
  /** what verification made of it; `written` before or without verification; `held_back` by an earlier decision */
  outcome: CaseOutcome | 'written' | 'not_written' | 'held_back';
  reason?: string;
  decision?: { verdict: Verdict; reason?: string; at: string; by: TestDecision['decidedBy'] };
  /** a kept test's confidence (docs/confidence.md), and whether it waits for review below the run's threshold */
  confidence?: number;
  awaitingReview?: true;
}

export interface ReviewAction {
  caseId: string;
  verdict: Verdict;
  reason?: string;
}

export interface ReviewResult {
  decided: TestDecision[];
  /** tests removed from files now, by file */
  removed: { file: string; caseIds: string[] }[];
  /** quarantined tests marked skipped with the person's note, by file */
  skipped: { file: string; caseIds: string[] }[];
  /** the run waited for these decisions (low-confidence tests) and is now completed */
  completed?: 'completed';
  /** quarantined tests answered "docs are wrong": now documentation issues of the run (app/docsWrong.ts) */
  docIssues?: RunDocIssue[];
}

/** Every test the run planned, its outcome and the person's decision about it. */
export async function reviewList(
  store: RunStore,
  runId: string,
): Promise<{ runId: string; tests: ReviewTest[]; ignoredDecisions: number }> {
  const run = await store.getOwnRun(runId);
  const { decisions, ignored } = await new DecisionStore(store.workspace).scan();
  const tests = (await fullPlan(store, run)).map((c) => reviewTest(run, c, decisions.get(c.id)));
  return { runId: run.id, tests, ignoredDecisions: ignored.length };
}

function reviewTest(run: RunRecord, c: TestCase, d: TestDecision | undefined): ReviewTest {
  const result = run.verification?.results.find((r) => r.caseId === c.id);
  const file = result?.file ?? run.files.find((f) => f.caseIds.includes(c.id))?.path;
  const held = run.decisions?.heldBack.some((h) => h.caseId === c.id);
  const outcome: ReviewTest['outcome'] = held ? 'held_back' : (result?.outcome ?? (file ? 'written' : 'not_written'));
  const confidence = run.confidence?.tests.find((t) => t.caseId === c.id)?.confidence;
  return {
    caseId: c.id,
    title: c.title,
    priority: c.priority,
    target: { file: c.target.file, symbol: c.target.symbol },
    ...(file ? { file } : {}),
    outcome,
    ...(result?.reason ? { reason: result.reason } : {}),
    ...(confidence !== undefined ? { confidence } : {}),
    ...(run.confidence?.awaiting.some((t) => t.caseId === c.id) ? { awaitingReview: true as const } : {}),
    ...(d ? { decision: { verdict: d.verdict, ...(d.reason ? { reason: d.reason } : {}), at: d.at, by: d.decidedBy } } : {}),
  };
}

/** The run's plan with the cases its decisions held back, so they can be decided about again. */
async function fullPlan(store: RunStore, run: RunRecord): Promise<TestCase[]> {
  if (!run.activities.some((a) => a.agent === 'generator' && a.artifactId)) return [];
  return (await testPlan(store, { ...run, decisions: undefined })).cases;
}

/**
 * Takes the person's decisions about tests of a run. With an `approver` (MCP: the calling model is not
 * the person), decisions that hold tests back or change files are confirmed first; nothing is decided
 * unless approved. Every action is checked before any is taken: one bad id decides nothing.
 */
export async function applyReview(
  store: RunStore,
  runId: string,
  actions: ReviewAction[],
  by: TestDecision['decidedBy'],
  approver?: Approver,
): Promise<ReviewResult> {
  const run = await store.getOwnRun(runId);
  const plan = new Map((await fullPlan(store, run)).map((c) => [c.id, c]));
  const list = new Map((await reviewList(store, runId)).tests.map((t) => [t.caseId, t]));
  for (const a of actions) checkAction(a, plan, list);
  if (!actions.length) throw new UsageError('no decision given: name tests to keep, drop or answer');
  if (approver) await confirm(approver, run.id, actions);
  const map = await store.agentOutput(run, 'crawler');
  const decisions = new DecisionStore(store.workspace);
  const decided: TestDecision[] = [];
  for (const a of actions) {
    const c = plan.get(a.caseId)!;
    const sourceHash = targetSourceHash(map, c.target.file, c.target.symbol);
    decided.push(
      await decisions.put({
        caseId: a.caseId,
        verdict: a.verdict,
        ...(a.reason?.trim() ? { reason: a.reason } : {}),
        target: { file: c.target.file, symbol: c.target.symbol, ...(sourceHash ? { sourceHash } : {}), behavior: behaviorOf(c) },
        title: oneLine(c.title, 300),
        ...(list.get(a.caseId)?.file ? { testFile: list.get(a.caseId)!.file } : {}),
        runId: run.id,
        decidedBy: by,
      }),
    );
  }
  const files = ownFiles(run);
  const removed = await editFiles(store.workspace, files, byFile(actions, list, ['rejected', 'wrong_test']), (p, text, ids) =>
    removeTests(p, text, ids),
  );
  const bugs = actions.filter((a) => a.verdict === 'real_bug');
  const notes = new Map(bugs.map((a) => [a.caseId, realBugNote(a.reason)]));
  const skipped = await editFiles(store.workspace, files, byFile(bugs, list, ['real_bug']), (p, text, ids) =>
    skipTests(p, text, new Map(ids.map((id) => [id, notes.get(id)!]))),
  );
  await forgetRemoved(store, run.id, removed);
  const docIssues = await reportDocsWrong(store, run.id, decided, plan);
  const completed = await settleAwaiting(store, run.id, actions);
  return { decided, removed, skipped, ...(completed ? { completed } : {}), ...(docIssues.length ? { docIssues } : {}) };
}

/**
 * The run no longer counts the tests review removed among its files' tests: a later run would
 * otherwise find them gone and record them as deleted by hand, so forgetting the rejection would not
 * let them come back (and the counts of tests on disk would be wrong).
 */
async function forgetRemoved(store: RunStore, runId: string, removed: ReviewResult['removed']): Promise<void> {
  if (!removed.length) return;
  const gone = new Map(removed.map((r) => [r.file, new Set(r.caseIds)]));
  const release = await store.lockRun(runId);
  try {
    const run = await store.getOwnRun(runId);
    const files = run.files.map((f) => (gone.has(f.path) ? { ...f, caseIds: f.caseIds.filter((id) => !gone.get(f.path)!.has(id)) } : f));
    await store.saveRun({ ...run, files });
  } finally {
    await release();
  }
}

/**
 * Tests the confidence gate held for review (pipeline/confidenceStage.ts) that the person decided
 * about leave the list: accepted ones are kept, rejected ones are gone. A run left with none waiting
 * is completed. Returns the run's new status when it changed.
 */
async function settleAwaiting(store: RunStore, runId: string, actions: ReviewAction[]): Promise<'completed' | undefined> {
  const release = await store.lockRun(runId);
  try {
    const run = await store.getOwnRun(runId);
    const gate = run.confidence;
    if (!gate?.awaiting.length) return undefined;
    const decided = new Map(actions.map((a) => [a.caseId, a.verdict]));
    const left = gate.awaiting.filter((t) => !decided.has(t.caseId));
    if (left.length === gate.awaiting.length) return undefined;
    const accepted = gate.awaiting
      .filter((t) => decided.get(t.caseId) === 'accepted')
      .map((t) => ({ caseId: t.caseId, by: 'review' as const }));
    const done = !left.length && run.status === 'awaiting_input';
    await store.saveRun({
      ...run,
      confidence: { ...gate, awaiting: left, accepted: [...gate.accepted, ...accepted] },
      ...(done
        ? { status: 'completed' as const, reason: undefined }
        : run.status === 'awaiting_input'
          ? { reason: awaitingReason(run.id, { ...gate, awaiting: left }) }
          : {}),
    });
    return done ? 'completed' : undefined;
  } finally {
    await release();
  }
}

/** What a client is told: each decision without its seal, and the files changed. */
export function reviewOutcome(r: ReviewResult): {
  decided: { caseId: string; verdict: Verdict; reason?: string }[];
  removed: ReviewResult['removed'];
  skipped: ReviewResult['skipped'];
  runStatus?: 'completed';
  docIssues?: RunDocIssue[];
} {
  return {
    decided: r.decided.map((d) => ({ caseId: d.caseId, verdict: d.verdict, ...(d.reason ? { reason: d.reason } : {}) })),
    removed: r.removed,
    skipped: r.skipped,
    ...(r.completed ? { runStatus: r.completed } : {}),
    ...(r.docIssues ? { docIssues: r.docIssues } : {}),
  };
}

function checkAction(a: ReviewAction, plan: Map<string, TestCase>, list: Map<string, ReviewTest>): void {
  if (!isCaseId(a.caseId) || !plan.has(a.caseId)) throw new UsageError(`${JSON.stringify(a.caseId)} is not a test case of this run`);
  if ((a.verdict === 'real_bug' || a.verdict === 'docs_wrong') && list.get(a.caseId)?.outcome !== 'quarantined')
    throw new UsageError(`${a.caseId} is not quarantined: only a quarantined test is answered "${a.verdict}"`);
  if (a.verdict === 'deleted') throw new UsageError('"deleted" is what AMTP records for a test removed by hand; reject the test instead');
  if (a.verdict === 'edited')
    throw new UsageError('"edited" is what AMTP records for a test changed by hand; keep or reject the test instead');
}

async function confirm(approver: Approver, runId: string, actions: ReviewAction[]): Promise<void> {
  const counts = new Map<string, number>();
  for (const a of actions) counts.set(a.verdict, (counts.get(a.verdict) ?? 0) + 1);
  const summary = `Record your decisions about ${actions.length} test(s) (${[...counts].map(([v, n]) => `${v} ${n}`).join(', ')}): rejected tests are removed from their files and never written back`;
  const id = 'ap_' + sha256(`${runId}\nreview\n${JSON.stringify(actions)}`).slice(0, 24);
  const answer = await approver.ask({ id, runId, tool: 'fs.overwrite', risk: 'high', summary });
  if (answer.decision !== 'approved')
    throw new UsageError(
      `the decisions were not confirmed (${answer.decision}${answer.note ? `: ${answer.note}` : ''}); nothing was decided`,
    );
}

/** The files this run wrote or quarantined into: the only ones a review edits. */
function ownFiles(run: RunRecord): Set<string> {
  return new Set([...run.files.map((f) => f.path), ...(run.verification?.quarantineFiles ?? [])]);
}

function byFile(actions: ReviewAction[], list: Map<string, ReviewTest>, verdicts: Verdict[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const a of actions.filter((x) => verdicts.includes(x.verdict))) {
    const file = list.get(a.caseId)?.file;
    if (file) out.set(file, [...(out.get(file) ?? []), a.caseId]);
  }
  return out;
}

type Edit = (path: string, text: string, caseIds: string[]) => string;

async function editFiles(workspace: string, own: Set<string>, files: Map<string, string[]>, edit: Edit): Promise<ReviewResult['removed']> {
  const out: ReviewResult['removed'] = [];
  for (const [file, ids] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
    if (!own.has(file)) continue;
    const abs = await resolveInside(workspace, file);
    if (protectedPath(workspaceRelative(await realpath(workspace), abs))) continue;
    const text = await fsp.readFile(abs, 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    const next = edit(file, text, ids);
    if (next === text) continue;
    await atomicWrite(abs, next);
    out.push({ file, caseIds: [...ids].sort() });
  }
  return out;
}
