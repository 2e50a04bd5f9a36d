// The durable run: create or resume a run record, then call the stages it was handed, in order,
// with one context (save, gateway). Each stage is re-entrant, so a resumed run skips finished work.
import { AGENTS } from '../core/agents';
import { AMTP_ENGINE } from '../core/engine';
import { newRunId } from '../core/ids';
import { CancelledError, errorKind, errorMessage } from '../core/errors';
import { isWritten, type ApprovalRecord, type RunParams, type RunRecord } from '../core/run';
import { Gateway } from '../gateway/gateway';
import { recordedDecisions } from '../gateway/approvers';
import type { PipelineDeps } from './deps';
import { observableState } from './observable';
import { isSealedApproval, ownerMark, sealApproval, sealRisks } from '../store/ownership';
import { ignoredRunsNote } from '../store/runRecords';
import { currentLessons } from './lessons';
import { decisionsAtStart } from './decisionStage';
import type { Save, StageContext } from './stage';
import { refreshUsage } from '../usage/health';
import { awaitingReason } from './confidenceStage';

/**
 * The person's decisions and the lessons a run starts with, taken once (deletions by hand found
 * first, so they are lessons too) and kept in its params: a resume and a replay (the recording's
 * header holds them) hold back the same cases and send the same envelopes. Given ones are kept.
 */
export async function prepareParams(deps: PipelineDeps, params: RunParams, runId: string): Promise<RunParams> {
  const decided = params.decided ?? (await decisionsAtStart(deps.store, runId, deps.testsIn));
  const lessons = params.lessons ?? (await currentLessons(deps.store));
  return { ...params, decided, lessons };
}

export async function startRun(
  deps: PipelineDeps,
  params: RunParams,
  runId = newRunId(),
  extra: Pick<RunRecord, 'sources' | 'reuse'> = {},
): Promise<RunRecord> {
  await deps.store.init();
  // Records a repository shipped under .amtp/runs are left aside (never an earlier run of this person's): say so once.
  const ignored = ignoredRunsNote((await deps.store.scanRuns()).ignored);
  if (ignored) deps.onEvent?.({ type: 'log', level: 'warn', message: ignored });
  params = await prepareParams(deps, params, runId);
  const now = new Date().toISOString();
  const run: RunRecord = {
    schema_version: 1,
    id: runId,
    version: 0,
    status: 'running',
    stage: 'crawler',
    createdAt: now,
    updatedAt: now,
    params,
    owner: ownerMark(runId, deps.workspace),
    risks: sealRisks(runId, deps.workspace, deps.riskPolicy?.user ?? {}),
    activities: AGENTS.map((agent) => ({ agent, status: 'pending', attempts: 0, errors: [] })),
    files: [],
    approvals: [],
    audit: [],
    engine: AMTP_ENGINE,
    ...extra,
  };
  return drive(deps, await deps.store.saveRun(run));
}

/**
 * A run whose workspace did not change since `from` (app/incremental.ts): its results stand. The new
 * record holds them, with the files it kept marked unchanged, and says what it reused; nothing runs.
 * Approvals are not carried over: they were sealed for the earlier run and act on nothing here.
 */
export async function reuseRun(
  deps: PipelineDeps,
  from: RunRecord,
  runId: string,
  extra: Required<Pick<RunRecord, 'sources' | 'reuse'>>,
): Promise<RunRecord> {
  const now = new Date().toISOString();
  const run: RunRecord = {
    ...structuredClone(from),
    id: runId,
    version: 0,
    createdAt: now,
    updatedAt: now,
    owner: ownerMark(runId, deps.workspace),
    risks: sealRisks(runId, deps.workspace, deps.riskPolicy?.user ?? {}),
    files: from.files.map((f) => ({ ...f, action: isWritten(f.action) ? 'unchanged' : f.action })),
    approvals: [],
    audit: [],
    timings: {},
    ...extra,
  };
  // The earlier run's phase times describe work this run did not do.
  if (run.verification) delete run.verification.phases;
  // Tests still waiting for review wait in this run too: `amtp review` names it.
  if (run.status === 'awaiting_input' && run.confidence) run.reason = awaitingReason(runId, run.confidence);
  // The artifacts the record refers to (agents' outputs, characterization) are kept per run: the new run holds its copies.
  const c = from.characterization;
  const ids = [...from.activities.map((a) => a.artifactId), c?.artifactId, ...(c?.modules ?? []).map((m) => m.artifactId)];
  let text = JSON.stringify(run);
  for (const id of new Set(ids.filter((x): x is string => !!x))) {
    const a = await deps.store.getArtifact(from.id, id);
    // An artifact's id depends on its run: the record's references follow the copy.
    const copy = await deps.store.putArtifact(runId, a.kind, a.content, a.meta);
    text = text.split(`"${id}"`).join(`"${copy.id}"`);
  }
  return deps.store.saveRun(JSON.parse(text) as RunRecord);
}

/** Continues a run from its last committed boundary. Completed agents are never called again. */
export async function resumeRun(deps: PipelineDeps, runId: string): Promise<RunRecord> {
  const first = await deps.store.getOwnRun(runId);
  if (first.status === 'completed') return first;
  // Lock before the first write: a second resume is refused without touching the record, so it
  // cannot bump the version under the process that owns the run (which would then fail too).
  const release = await deps.store.lockRun(runId);
  let run: RunRecord;
  try {
    run = await deps.store.getOwnRun(runId); // re-read under the lock
    if (run.status === 'completed') {
      await release();
      return run;
    }
    run = await deps.store.saveRun({ ...run, status: 'running', reason: undefined });
  } catch (e) {
    await release();
    throw e;
  }
  return drive(deps, run, release);
}

/** A run goes on while it is running; a stage that decides the run's end (verification) may also complete it. */
const goesOn = (run: RunRecord) => run.status === 'running';

async function drive(deps: PipelineDeps, initial: RunRecord, held?: () => Promise<void>): Promise<RunRecord> {
  const release = held ?? (await deps.store.lockRun(initial.id));
  const ctx = context(deps, initial);
  try {
    await auditIgnoredSettings(ctx);
    for (const stage of deps.stages) {
      const started = performance.now();
      await stage(ctx);
      await recordTiming(ctx, stage.name || ctx.state.run.stage, performance.now() - started);
      if (!goesOn(ctx.state.run)) break;
    }
    if (ctx.state.run.status === 'running')
      await ctx.save((r) => {
        r.status = 'completed';
        r.stage = 'done';
      });
    return ctx.state.run;
  } catch (e) {
    if (e instanceof CancelledError)
      return ctx.save((r) => {
        r.status = 'cancelled';
        r.reason = 'cancelled by the user';
      });
    await ctx.save((r) => {
      r.status = 'failed';
      r.reason = `${errorKind(e)}: ${errorMessage(e)}`;
    });
    throw e;
  } finally {
    await release();
  }
}

/** A stage's wall time in the run record (`timings`, seconds): skipped stages (done before a resume) take ~0 and are not noted. */
async function recordTiming(ctx: StageContext, name: string, ms: number): Promise<void> {
  if (ms < 1) return;
  const key = name.replace(/Stage$/, '');
  await ctx.save((r) => {
    r.timings = { ...r.timings, [key]: Math.round(((r.timings?.[key] ?? 0) * 1000 + ms) / 10) / 100 };
  });
}

function context(deps: PipelineDeps, initial: RunRecord): StageContext {
  const state = { run: initial };
  if (deps.recorder) deps.recorder.transition(null, observableState(initial).label, observableState(initial).state);
  const write = async (mut: (r: RunRecord) => void) => {
    const draft = structuredClone(state.run);
    mut(draft);
    refreshUsage(draft); // token sums and the health block follow every change of the record
    const before = observableState(state.run);
    state.run = await deps.store.saveRun(draft);
    const after = observableState(state.run);
    if (deps.recorder && after.text !== before.text) deps.recorder.transition(before.label, after.label, after.state);
    deps.onEvent?.({ type: 'run', run: state.run });
    return state.run;
  };
  // Batches run concurrently; their changes to the one run record are applied one after another.
  let queue: Promise<unknown> = Promise.resolve();
  const save: Save = (mut) => {
    const done = queue.then(() => write(mut));
    queue = done.catch(() => undefined);
    return done;
  };
  // Decisions already on record (`amtp approve`) answer first, so a resumed run finds them.
  const gateway = new Gateway(
    state.run.id,
    recordedDecisions(
      () => state.run,
      deps.approver,
      (a) => isSealedApproval(state.run.id, deps.workspace, a),
      (message) => deps.onEvent?.({ type: 'log', level: 'warn', message }),
    ),
    {
      approval: (rec) => save((r) => upsertApproval(r, sealApproval(r.id, deps.workspace, rec))).then(() => undefined),
      audit: (row) =>
        save((r) => {
          r.audit.push(row);
        }).then(() => undefined),
    },
    deps.riskPolicy,
  );
  return { deps, state, save, gateway };
}

function upsertApproval(r: RunRecord, rec: ApprovalRecord): void {
  r.approvals = r.approvals.filter((a) => a.id !== rec.id);
  r.approvals.push(rec);
}

/** Repository settings that tried to steer the run were ignored: say so in the log and the audit, once per run. */
async function auditIgnoredSettings(ctx: StageContext): Promise<void> {
  const warnings = ctx.deps.ignoredSettings ?? [];
  const done = new Set(ctx.state.run.audit.filter((a) => a.tool === 'settings.ignored').map((a) => a.detail));
  for (const w of warnings) {
    ctx.deps.onEvent?.({ type: 'log', level: 'warn', message: w });
    if (!done.has(w))
      await ctx.save((r) => {
        r.audit.push({ at: new Date().toISOString(), tool: 'settings.ignored', risk: 'high', outcome: 'refused', detail: w });
      });
  }
}
