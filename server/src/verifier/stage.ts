// The 'verify' stage, after 'write': asks once for `tests.run` (high risk: it executes workspace code),
// then keeps only assured tests (verify.ts) and validates the goal (settleGoal, with unmet.ts). Re-entrant: a run
// killed during verification restores the files it had rewritten and verifies again.
import type { CrawlerOutput, EngineerOutput, TestCases } from '../contracts/types';
import type { Gateway, ToolCallInfo } from '../gateway/gateway';
import { sha256 } from '../core/canonical';
import type { PipelineDeps } from '../pipeline/deps';
import type { Save, Stage } from '../pipeline/stage';
import { testPlan } from '../pipeline/testPlan';
import { RateGate } from '../pipeline/rateGate';
import { DEFAULT_BACKOFF } from '../pipeline/retry';
import { isWritten, type ApprovalRecord, type RunRecord } from '../core/run';
import { putFile, readOrNull, type WriteLog } from './files';
import { approvedDiffNotes } from './approvedDiffs';
import { keptTestTexts } from './keptTexts';
import { confinementPhrase } from '../frameworks/run/confine';
import { planRun, type RunPlan } from './runPlan';
import { productFilesOf } from './productFiles';
import { findTests } from './testFile';
import type { VerificationRecord } from '../core/run';
import { unmetCases } from './unmet';
import { verifyFiles } from './verify';
import { resolveInside } from '../util/safePath';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { applyProjectStyle, projectStyleTools } from '../frameworks/run/projectStyle';

function fresh(runs: number, over: Partial<VerificationRecord> = {}): VerificationRecord {
  const v: VerificationRecord = {
    status: 'running',
    runs,
    executions: 0,
    filters: [],
    results: [],
    repairs: [],
    quarantineFiles: [],
    unmet: [],
    pids: [],
    writes: [],
    // an absent field stays absent (a replayed plan from before confinement was recorded has none)
    ...(Object.fromEntries(Object.entries(over).filter(([, v]) => v !== undefined)) as Partial<VerificationRecord>),
  };
  if (!v.loaderNote) delete v.loaderNote;
  return v;
}

type VerifyParams = NonNullable<RunRecord['params']['verify']>;

/** What is verified: the engineer's output, the test cases, and the written files that hold tests. */
interface Written {
  engineer: EngineerOutput;
  engineerArtifactId: string;
  /** the run's test plan, amended by the characterize stage when it ran (pipeline/testPlan.ts) */
  cases: TestCases;
  files: EngineerOutput['files'];
  /** every product source file the crawler found in the runner's language (coverage counts them all) */
  productFiles: string[];
  /** the crawler's map: each function's lines and source, for coverage rounds */
  map: CrawlerOutput;
}

export const verifyStage: Stage = async ({ deps, state, save, gateway }) => {
  // Verification follows a write stage that settled every file; a run waiting for a write approval is not verified yet.
  if (state.run.status !== 'running') return;
  // A verification that ended (done, skipped, rejected) is not run again when a later stage resumes.
  const ended = state.run.verification?.status;
  if (ended === 'done' || ended === 'skipped' || ended === 'rejected') return;
  const params = state.run.params.verify;
  if (!params) return; // runs started without verifier settings (library callers, replays) have no verify stage
  const skip = (reason: string) => skipVerification(save, params, reason);
  if (!params.enabled) return skip('verification is off (--no-verify)');
  if (deps.canExecute && !deps.canExecute()) return skip(UNTRUSTED);

  const written = await writtenTests(deps, state.run);
  if (!written.files.length) return skip('no test file was written');
  const decide = () =>
    planRun(
      written.engineer.framework,
      deps.workspace,
      written.engineer.command,
      written.files.map((f) => f.path),
    );
  const plan = deps.tests ? deps.tests.plan(decide) : decide();
  if ('cannot' in plan) return skip(`the tests cannot run here: ${plan.cannot}`);

  const prior = state.run.verification?.writes ?? [];
  await startVerification(save, params, plan, prior);
  const update = (mut: (v: VerificationRecord) => void) => save((r) => mut(r.verification!)).then(() => undefined);
  const log = writeLog(deps, written, prior, update);
  const result = await gateway.execute(
    'tests.run',
    testsRunRequest(state.run.id, deps.workspace, written.files, plan, params),
    async () => {
      // Trust can be revoked while the approval was pending: checked again right before anything runs.
      if (deps.canExecute && !deps.canExecute()) return false;
      await restore(deps, gateway, log, state.run, written.files, prior);
      await verifyFiles(verifyInput({ deps, state, save, gateway }, plan, params, written, log, update));
      await styleKept(deps, state.run, written.files, params, update);
      return true;
    },
  );
  // Only a stage that stops the run sets a status; otherwise the run goes on (a branch, then done).
  if (result.ran && !result.value) return skip(UNTRUSTED);
  if (!result.ran) return notRun(save, result.approval.decision);
  await noteApprovedDiffs(deps.workspace, state.run, update);
  const keptTexts = await keptTestTexts(deps.workspace, state.run);
  await update((v) => {
    v.keptTexts = keptTexts;
  });
  await settleGoal(save, written, state.run);
};

/** What the verifier works from: the run, its written files and plan, the model and the store. */
function verifyInput(
  { deps, state, gateway }: Parameters<Stage>[0],
  plan: RunPlan,
  params: VerifyParams,
  written: Written,
  log: ReturnType<typeof writeLog>,
  update: (mut: (v: VerificationRecord) => void) => Promise<void>,
): Parameters<typeof verifyFiles>[0] {
  return {
    workspace: deps.workspace,
    run: () => state.run,
    store: deps.store,
    provider: deps.provider,
    retry: { maxAttempts: state.run.params.maxAttempts, backoff: { ...DEFAULT_BACKOFF, ...deps.backoff } },
    gate: new RateGate(deps.sharedLimit?.(state.run.params.models.engineer)),
    gateway,
    plan,
    params,
    ...written,
    log,
    signal: deps.signal,
    update,
    runTests: deps.tests?.run,
    mutate: deps.tests?.mutate,
    ...(deps.mutants ? { mutants: deps.mutants } : {}),
    info: (message) => deps.onEvent?.({ type: 'log', level: 'info', message }),
    debug: (message) => deps.onEvent?.({ type: 'log', level: 'debug', message }),
  };
}

/** The project's own Prettier/ESLint (ruff, black) over the files the run keeps, as it configures them (frameworks/run/projectStyle.ts). */
async function styleKept(
  deps: PipelineDeps,
  run: RunRecord,
  files: EngineerOutput['files'],
  params: VerifyParams,
  update: (mut: (v: VerificationRecord) => void) => Promise<void>,
): Promise<void> {
  const kept = [...files.map((f) => f.path), ...(run.verification?.quarantineFiles ?? [])].filter((f) =>
    existsSync(join(deps.workspace, f)),
  );
  if (!kept.length) return;
  const pids: number[] = [];
  const style = await applyProjectStyle(deps.workspace, kept, {
    timeoutMs: params.timeoutSeconds * 1000,
    signal: deps.signal,
    onSpawn: (pid) => void pids.push(pid),
  });
  if (style.length)
    await update((v) => {
      v.style = style;
      v.pids.push(...pids);
    });
}

/** The verification record a started run begins with: what runs, how it is confined, the writes kept from before. */
async function startVerification(save: Save, params: VerifyParams, plan: RunPlan, prior: VerificationRecord['writes']): Promise<void> {
  await save((r) => {
    r.stage = 'verify';
    r.status = 'running';
    r.reason = undefined;
    r.verification = fresh(params.runs, {
      framework: plan.framework,
      writes: prior,
      confinement: plan.confinement,
      loaderNote: plan.loaderNote,
    });
  });
}

const UNTRUSTED = 'the workspace is not trusted: tests never run in Restricted Mode';

async function skipVerification(save: Save, params: VerifyParams, reason: string): Promise<void> {
  await save((r) => {
    r.verification = fresh(params.runs, { ...keepLog(r.verification), status: 'skipped', reason });
  });
}

async function writtenTests(deps: PipelineDeps, run: RunRecord): Promise<Written> {
  const engineerArtifactId = run.activities.find((a) => a.agent === 'engineer')!.artifactId!;
  const engineer = await deps.store.agentOutput(run, 'engineer');
  const cases = await testPlan(deps.store, run);
  // A merged file is verified (and restored on resume) as written: its earlier tests and the run's own.
  const files = engineer.files
    .map((f) => ({ ...f, content: run.files.find((r) => r.path === f.path)?.written ?? f.content }))
    .filter((f) => isWritten(run.files.find((r) => r.path === f.path)?.action) && findTests(f.path, f.content).length > 0)
    .sort((a, b) => a.path.localeCompare(b.path));
  const map = await deps.store.agentOutput(run, 'crawler');
  const productFiles = productFilesOf(map, engineer.framework, run.params.scope, deps.workspace);
  return { engineer, engineerArtifactId, cases, files, productFiles, map };
}

/** Records each file the verifier writes before it writes it; contents it knows as the run's own (restore()) are the engineer's, the written files' and earlier verifier writes. */
function writeLog(
  deps: PipelineDeps,
  { engineer, files }: Written,
  prior: VerificationRecord['writes'],
  update: (mut: (v: VerificationRecord) => void) => Promise<void>,
): WriteLog {
  return {
    known: new Set([
      ...engineer.files.map((f) => sha256(f.content)),
      ...files.map((f) => sha256(f.content)),
      ...prior.flatMap((w) => (w.sha256 ? [w.sha256] : [])),
    ]),
    before: (path, sha, content) => {
      deps.tests?.wrote(path, content);
      return update((v) => {
        v.writes.push({ path, sha256: sha });
      });
    },
  };
}

function testsRunRequest(
  runId: string,
  workspace: string,
  files: EngineerOutput['files'],
  plan: RunPlan,
  params: VerifyParams,
): ToolCallInfo {
  const tests = files.reduce((n, f) => n + new Set(findTests(f.path, f.content).map((b) => b.caseId)).size, 0);
  return {
    summary: `Run ${tests} written test(s) in ${files.length} file(s) with ${plan.framework}, ${params.runs} times plus coverage and mutation runs${styleNote(workspace, files)} (executes workspace code, with ${confinementPhrase(plan.confinement)}; each run is killed after ${params.timeoutSeconds} s)`,
    target: files.map((f) => f.path).join(', '),
    // Stable: `amtp approve` decides this same request, and the resumed run finds it.
    approvalId: 'ap_' + sha256(`${runId}\ntests.run\n${files.map((f) => `${f.path}:${sha256(f.content)}`).join('\n')}`).slice(0, 24),
  };
}

/** ", then its own Prettier and ESLint on the written files" when the project configures and has them. */
function styleNote(workspace: string, files: EngineerOutput['files']): string {
  const tools = projectStyleTools(
    workspace,
    files.map((f) => f.path),
  ).map((t) => t.tool);
  return tools.length ? `, then the project's own ${tools.join(' and ')} on the written files` : '';
}

/** The test run was not approved: it waits for `amtp approve`, or was rejected or timed out and nothing ran. */
async function notRun(save: Save, decision: ApprovalRecord['decision']): Promise<void> {
  await save((r) => {
    if (decision === 'pending') {
      r.status = 'awaiting_approval';
      r.reason = `the test run waits for approval: amtp approve ${r.id} [--reject]`;
      r.verification!.status = 'awaiting_approval';
      r.verification!.reason = r.reason;
    } else {
      r.verification!.status = 'rejected';
      r.verification!.reason = `the test run was ${decision === 'timeout' ? 'not approved in time' : 'rejected'}: nothing was executed`;
    }
  });
}

/** Approved files that verification took tests out of, each named with what it lost and why (approvedDiffs.ts). */
async function noteApprovedDiffs(
  workspace: string,
  run: RunRecord,
  update: (mut: (v: VerificationRecord) => void) => Promise<void>,
): Promise<void> {
  const notes = await approvedDiffNotes(run, async (path) => readOrNull(await resolveInside(workspace, path)));
  if (notes.length)
    await update((v) => {
      v.afterApproval = notes;
    });
}

/** Verification is done; the run needs review when a P0/P1 case has no passing or quarantined test. */
async function settleGoal(save: Save, { cases, engineer }: Written, run: RunRecord): Promise<void> {
  const unmet = unmetCases(cases, engineer, run, run.verification!.results);
  await save((r) => {
    const v = r.verification!;
    v.status = 'done';
    v.unmet = unmet;
    if (!unmet.length) return;
    r.status = 'needs_review';
    r.reason = `${unmet.length} P0/P1 case(s) have no passing or quarantined test: ${unmet.map((u) => `${u.caseId} (${u.reason})`).join('; ')}`;
  });
}

function keepLog(v: VerificationRecord | undefined): Partial<VerificationRecord> {
  return v ? { writes: v.writes, pids: v.pids } : {};
}

/** A re-verification starts from what the engineer wrote: files the verifier had rewritten are put back, quarantine files it wrote are removed. */
async function restore(
  deps: PipelineDeps,
  gateway: Gateway,
  log: WriteLog,
  run: RunRecord,
  files: EngineerOutput['files'],
  prior: VerificationRecord['writes'],
): Promise<void> {
  if (!prior.length) return;
  const ours = new Set(prior.flatMap((w) => (w.sha256 ? [w.sha256] : [])));
  for (const f of files) {
    const now = await readOrNull(await resolveInside(deps.workspace, f.path));
    if (now !== f.content && (now === null || ours.has(sha256(now))))
      await putFile(gateway, deps.workspace, log, run.id, f.path, f.content, 'restores the written file before verifying again');
  }
  const engineerPaths = new Set(files.map((f) => f.path));
  for (const path of new Set(prior.map((w) => w.path))) {
    if (engineerPaths.has(path)) continue;
    const now = await readOrNull(await resolveInside(deps.workspace, path));
    if (now !== null && ours.has(sha256(now)))
      await putFile(gateway, deps.workspace, log, run.id, path, null, 'removes a quarantine file before verifying again');
  }
}
