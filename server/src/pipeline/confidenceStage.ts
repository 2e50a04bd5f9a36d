// The confidence gate, after verification: every test the run keeps gets a confidence (its case's,
// reconciled with what verification showed: pipeline/confidence.ts). A kept test below the run's
// threshold is not kept silently: it waits for a person, and the run ends `awaiting_input` with the
// list, as a run waiting for an approval does. Only verified tests wait (a run that ran none says
// so). `--accept-low-confidence` (or an `accepted` decision from an earlier run) lets such tests
// through; `--yes` does not. `amtp review` (CLI, MCP, VS Code)
// accepts or rejects them one by one (app/review.ts), and the run completes once none is left.
import { DEFAULT_CONFIDENCE_THRESHOLD, testConfidence, type TestEvidence } from './confidence';
import { isWritten, type ConfidenceRecord, type RunRecord } from '../core/run';
import type { Stage } from './stage';
import { testPlan } from './testPlan';
import { casesDecided } from './decisions';

const KEPT = new Set(['passing', 'flaky']);

export const confidenceStage: Stage = async ({ deps, state, save }) => {
  const run = state.run;
  if (run.status !== 'running' && run.status !== 'needs_review') return;
  const v = run.verification;
  if (v && v.status !== 'done' && v.status !== 'skipped') return;
  if (!run.activities.some((a) => a.agent === 'engineer' && a.artifactId)) return;
  // Decided once; a resumed run keeps what review decided since (app/review.ts updates `awaiting`).
  const record = run.confidence ?? (await gate(deps.store, run));
  await save((r) => {
    r.confidence = record;
    if (record.awaiting.length && r.status === 'running') {
      r.status = 'awaiting_input';
      r.reason = awaitingReason(r.id, record);
    }
  });
};

export function awaitingReason(runId: string, record: ConfidenceRecord): string {
  const n = record.awaiting.length;
  return `${n} test(s) below confidence ${record.threshold} wait for review: amtp review ${runId} --keep CASE_ID… or --drop CASE_ID… (or generate with --accept-low-confidence)`;
}

async function gate(store: Parameters<typeof testPlan>[0], run: RunRecord): Promise<ConfidenceRecord> {
  const threshold = run.params.confidenceThreshold ?? DEFAULT_CONFIDENCE_THRESHOLD;
  const plan = await testPlan(store, run);
  const engineer = await store.agentOutput(run, 'engineer');
  const v = run.verification?.status === 'done' ? run.verification : undefined;
  const written = engineer.files.filter((f) => isWritten(run.files.find((r) => r.path === f.path)?.action));
  const fileOf = new Map(written.flatMap((f) => f.caseIds.map((id) => [id, f.path] as const)));
  const kept = v ? v.results.filter((r) => KEPT.has(r.outcome)).map((r) => r.caseId) : [...fileOf.keys()];
  const accepted = casesDecided(run, 'accepted');
  const record: ConfidenceRecord = { threshold, tests: [], awaiting: [], accepted: [] };
  for (const id of [...new Set(kept)].sort()) {
    const c = plan.cases.find((x) => x.id === id);
    if (!c) continue;
    const seen: TestEvidence | undefined = v && {
      stable: v.results.find((r) => r.caseId === id)?.outcome === 'passing',
      kills: v.mutation?.kills[id]?.length ?? 0,
      repaired: v.repairs.some((r) => r.caseId === id && r.outcome === 'fixed'),
      ...(engineer.confidence?.[id] !== undefined ? { engineer: engineer.confidence[id] } : {}),
    };
    const { value, basis } = testConfidence(c, seen);
    record.tests.push({ caseId: id, confidence: value, basis });
    if (value >= threshold || !v) continue;
    if (accepted.has(id)) record.accepted.push({ caseId: id, by: 'decision' });
    else if (run.params.acceptLowConfidence) record.accepted.push({ caseId: id, by: 'flag' });
    else
      record.awaiting.push({
        caseId: id,
        confidence: value,
        basis,
        title: c.title,
        file: v?.results.find((r) => r.caseId === id)?.file ?? fileOf.get(id) ?? '',
      });
  }
  // Unverified tests are listed with their planned value but none waits: the gate weighs what a test
  // showed under the project's runner, and the summary already says the run verified nothing.
  if (!v && record.tests.some((t) => t.confidence < threshold))
    record.unverified = `the tests were not verified (${run.verification?.reason ?? 'verification off'}): nothing below ${threshold} was held for review`;
  return record;
}
