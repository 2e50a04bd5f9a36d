import type { CaseStatus, CaseView, RunView } from '../protocol';
import type { MutationRecord, MutationView } from '../core/mutation';
import type { EngineerOutput, TestCase } from '../contracts/types';
import type { RunStore } from '../store/types';
import { type RunRecord, WRITTEN_ACTIONS } from '../core/run';
import { runHealth, runUsage } from '../usage/health';
import { isCharacterizationCase } from '../frameworks/header';
import { testPlan } from '../pipeline/testPlan';
import type { RunScope } from '../core/scope';

type Verified = NonNullable<RunRecord['verification']>['results'][number];

/** Where each case's test is: its file and, when the case id appears in it, the 0-based line. */
function testLocations(eng: EngineerOutput | undefined): Map<string, { path: string; line?: number }> {
  const fileOf = new Map<string, { path: string; line?: number }>();
  for (const f of eng?.files ?? []) {
    const lines = f.content.split('\n');
    for (const id of f.caseIds) {
      const line = lines.findIndex((l) => l.includes(id));
      fileOf.set(id, { path: f.path, line: line >= 0 ? line : undefined });
    }
  }
  return fileOf;
}

/** What is known of a run's cases: what the engineer left out, where each test is, what the verifier and the Testing view found. */
interface CaseFacts {
  notWritten: Map<string, string>;
  fileOf: Map<string, { path: string; line?: number }>;
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
    // after verification the test may have moved (quarantine file) or lines shifted (rewritten file)
    ...(v?.file ? { testFile: v.file, testLine: v.line } : {}),
  };
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
  const cases = (plan?.cases ?? []).map((c) => caseView(c, facts));

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
    files: run.files.map((f) => ({ path: f.path, action: f.action, caseIds: f.caseIds })),
    framework: eng?.framework,
    testCommand: eng?.command,
    pendingApprovals: run.approvals
      .filter((a) => a.decision === 'pending')
      .map((a) => ({ runId: run.id, approvalId: a.id, tool: a.tool, risk: a.risk, summary: a.summary, target: a.target })),
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
            docIssues: run.verification.results.flatMap((r) => (r.docIssue ? [{ caseId: r.caseId, ...r.docIssue }] : [])),
            unmet: run.verification.unmet,
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
  return `verifying ${tests} test${tests === 1 ? '' : 's'} in ${files.length} file${files.length === 1 ? '' : 's'} · ${runs} runner run${runs === 1 ? '' : 's'}`;
}

function mutationView(m: MutationRecord): MutationView {
  return {
    status: m.status,
    ...(m.reason ? { reason: m.reason } : {}),
    ...(m.score !== undefined ? { score: m.score } : {}),
    seconds: m.seconds,
    budgetSeconds: m.budgetSeconds,
    files: m.files,
    notRun: m.notRun,
    survivors: m.survivors,
  };
}
