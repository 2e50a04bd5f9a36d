import type { CaseStatus, CaseView, RunView } from '../protocol';
import type { MutationRecord, MutationView } from '../core/mutation';
import type { EngineerOutput, TestCase } from '../contracts/types';
import type { RunStore } from '../store/types';
import { type RunRecord, WRITTEN_ACTIONS } from '../core/run';
import { runHealth, runUsage } from '../usage/health';
import { isCharacterizationCase } from '../frameworks/header';
import { testPlan } from '../pipeline/testPlan';
import type { RunScope } from '../core/scope';
import { testsInFile } from '../frameworks/caseMap';
import { docIssuesOf } from '../core/docIssues';

type Verified = NonNullable<RunRecord['verification']>['results'][number];

type Location = { path: string; line?: number; name?: string };

/** Where each case's test is: its file and, when the file holds a test of it, the 0-based line and the test's own name. */
function testLocations(eng: EngineerOutput | undefined): Map<string, Location> {
  const fileOf = new Map<string, Location>();
  for (const f of eng?.files ?? []) {
    const tests = testsInFile(f.path, f.content);
    for (const id of f.caseIds) {
      const t = tests.find((x) => x.caseId === id);
      fileOf.set(id, { path: f.path, ...(t ? { line: t.line, name: t.name } : {}) });
    }
  }
  return fileOf;
}

/** What is known of a run's cases: what the engineer left out, where each test is, what the verifier and the Testing view found. */
interface CaseFacts {
  notWritten: Map<string, string>;
  fileOf: Map<string, Location>;
  fileAction: Map<string, RunRecord['files'][number]['action']>;
  verified: Map<string, Verified>;
  results: Map<string, 'passing' | 'failing'>;
}

/** One case as the client shows it: a written test's status is the verifier's outcome, else the last Testing-view result. */
function caseView(c: TestCase, facts: CaseFacts): CaseView {
  const where = facts.fileOf.get(c.id);
  const action = where ? facts.fileAction.get(where.path) : undefined;
  const v = facts.verified.get(c.id);
  let status: CaseStatus = 'planned';
  let reason: string | undefined;
  if (facts.notWritten.has(c.id)) {
    status = 'not_written';
    reason = facts.notWritten.get(c.id);
  } else if (where && action && WRITTEN_ACTIONS.has(action)) {
    status = v?.outcome ?? facts.results.get(c.id) ?? 'written';
    if (v?.reason) reason = v.reason;
  } else if (where && action && action !== 'pending') {
    status = 'not_written';
    reason = `file ${where.path} was ${action}`;
  }
  return {
    id: c.id,
    title: c.title,
    priority: c.priority,
    kind: c.kind,
    target: { file: c.target.file, symbol: c.target.symbol },
    status,
    ...(reason ? { reason } : {}),
    ...(isCharacterizationCase(c) ? { pinned: true } : {}),
    ...(where ? { testFile: where.path, testLine: where.line } : {}),
    ...(where?.name ? { testName: where.name } : {}),
    // after verification the test may have moved (quarantine file) or lines shifted (rewritten file)
    ...(v?.file ? { testFile: v.file, testLine: v.line } : {}),
  };
}

/** A kept test's confidence, and whether it waits for review (pipeline/confidenceStage.ts). */
function withConfidence(view: CaseView, gate: RunRecord['confidence']): CaseView {
  const t = gate?.tests.find((x) => x.caseId === view.id);
  if (!t) return view;
  return { ...view, confidence: t.confidence, ...(gate!.awaiting.some((a) => a.caseId === view.id) ? { awaitingReview: true } : {}) };
}

/** The person's earlier decisions as the run applied them, and the confidence gate's threshold and waiting count. */
function reviewView(run: RunRecord): Pick<RunView, 'decisions' | 'confidence'> {
  return {
    ...(run.decisions ? { decisions: { heldBack: run.decisions.heldBack, answered: run.decisions.answered } } : {}),
    ...(run.confidence ? { confidence: { threshold: run.confidence.threshold, awaiting: run.confidence.awaiting.length } } : {}),
  };
}

/** A written file, and the accepted tests the run left as they were (the change was not approved). */
function fileView(f: RunRecord['files'][number]): RunView['files'][number] {
  return { path: f.path, action: f.action, caseIds: f.caseIds, ...(f.acceptedKept?.length ? { acceptedKept: f.acceptedKept } : {}) };
}

function pendingApprovals(run: RunRecord): RunView['pendingApprovals'] {
  return run.approvals
    .filter((a) => a.decision === 'pending')
    .map((a) => ({ runId: run.id, approvalId: a.id, tool: a.tool, risk: a.risk, summary: a.summary, target: a.target }));
}

/** What a scoped run was asked for, as the CLI would write it. */
function scopeLabel(scope: RunScope): string {
  const asked = [...(scope.only ?? []).map((o) => `--only ${o}`), ...(scope.changedSince ? [`--changed-since ${scope.changedSince}`] : [])];
  return asked.join(' ') || scope.files.map((f) => f.path).join(', ') || 'nothing in scope';
}

/** What the client shows of a run: cases with their status, files, pending approvals, tokens and health. */
export async function runView(run: RunRecord, store: RunStore, results: Map<string, 'passing' | 'failing'> = new Map()): Promise<RunView> {
  const done = (agent: 'generator' | 'engineer') => run.activities.some((a) => a.agent === agent && a.artifactId);
  const plan = done('generator') ? await testPlan(store, run) : undefined;
  const eng = done('engineer') ? await store.agentOutput(run, 'engineer') : undefined;
  const facts: CaseFacts = {
    notWritten: new Map((eng?.not_written ?? []).map((n) => [n.caseId, n.reason])),
    fileOf: testLocations(eng),
    fileAction: new Map(run.files.map((f) => [f.path, f.action])),
    verified: new Map((run.verification?.results ?? []).map((r) => [r.caseId, r])),
    results,
  };
  const gate = run.confidence;
  const cases = (plan?.cases ?? []).map((c) => withConfidence(caseView(c, facts), gate));

  return {
    runId: run.id,
    status: run.status,
    stage: run.stage,
    reason: run.reason,
    createdAt: run.createdAt,
    params: {
      depth: run.params.depth,
      framework: run.params.framework,
      provider: run.params.provider,
      ...(run.params.scope ? { scope: scopeLabel(run.params.scope) } : {}),
    },
    activities: run.activities.map((a) => ({
      agent: a.agent,
      status: a.status,
      attempts: a.attempts,
      errors: a.errors.map((e) => ({ kind: e.kind, message: e.message })),
    })),
    cases,
    ...reviewView(run),
    files: run.files.map(fileView),
    framework: eng?.framework,
    testCommand: eng?.command,
    pendingApprovals: pendingApprovals(run),
    ...(run.verification
      ? {
          verification: {
            status: run.verification.status,
            reason: run.verification.reason,
            ...(run.verification.loaderNote ? { loaderNote: run.verification.loaderNote } : {}),
            runs: run.verification.runs,
            filters: run.verification.filters,
            coverage: run.verification.coverage,
            quarantineFiles: run.verification.quarantineFiles,
            docIssues: docIssuesOf(run),
            unmet: run.verification.unmet,
            ...(run.verification.afterApproval?.length ? { afterApproval: run.verification.afterApproval } : {}),
            ...(run.verification.mutation ? { mutation: mutationView(run.verification.mutation) } : {}),
          },
        }
      : {}),
    usage: runUsage(run),
    health: runHealth(run),
  };
}

/** "verifying 40 tests in 3 files · 57 runner runs": what is being verified, so the run count has a scale. */
export function verifyingMessage(run: RunRecord): string {
  const files = run.files.filter((f) => WRITTEN_ACTIONS.has(f.action));
  const tests = files.reduce((n, f) => n + f.caseIds.length, 0);
  const runs = run.verification?.executions ?? 0;
  // A total people can measure progress by: tests settled (kept, dropped, quarantined) of the tests written.
  const settled = Math.min(tests, new Set((run.verification?.results ?? []).map((r) => r.caseId)).size);
  return `verifying ${tests} test${tests === 1 ? '' : 's'} in ${files.length} file${files.length === 1 ? '' : 's'} · ${settled} of ${tests} settled · ${runs} runner run${runs === 1 ? '' : 's'}`;
}

function mutationView(m: MutationRecord): MutationView {
  return {
    status: m.status,
    ...(m.reason ? { reason: m.reason } : {}),
    ...(m.score !== undefined ? { score: m.score } : {}),
    seconds: m.seconds,
    budgetSeconds: m.budgetSeconds,
    ...(m.budgetNote ? { budgetNote: m.budgetNote } : {}),
    files: m.files,
    notRun: m.notRun,
    survivors: m.survivors,
  };
}
