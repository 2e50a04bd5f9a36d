// The commands that start or continue a run: generate, resume, approve.
import * as path from 'node:path';
import { UsageError } from '../core/errors';
import { resolveScope } from '../app/scope';
import { newRunId } from '../core/ids';
import type { Depth, FrameworkChoice } from '../core/frameworks';
import type { RunRecord } from '../core/run';
import { deferAll } from '../gateway/approvers';
import { planIncremental, sourceHashes } from '../app/incremental';
import { prepareParams, resumeRun, reuseRun, startRun } from '../pipeline/orchestrator';
import { sealApproval, sealedRisks } from '../store/ownership';
import { openRunStore, storeUrl } from '../app/store';
import { scaleSecrets } from '../app/scale';
import type { RunStore } from '../store/types';
import { recordedDeps } from '../record/wire';
import { riskFlags } from './args';
import type { FlagValues } from './flags';
import { finish } from './output';
import { minCoverageArg } from './coverageOut';
import { defaultProvider, endpointSettings, priceTableOption, secretsOf } from './endpointOptions';
import { err, workspaceArg } from './io';
import { approverFor, logLevelOf, pipelineDeps, runParams, stderrEvents } from './pipeline';
import { runPrices } from '../usage/defaultPrices';

const num = (v: string | undefined) => (v !== undefined ? Number(v) : undefined);

/** The run's parameters from the flags of `generate`. */
function paramsFromFlags(v: FlagValues, provider: ReturnType<typeof defaultProvider>) {
  return runParams({
    depth: v.depth as Depth | undefined,
    framework: v.framework as FrameworkChoice | undefined,
    provider,
    model: v.model,
    models: { crawler: v['crawler-model'], generator: v['generator-model'], engineer: v['engineer-model'] },
    seed: num(v.seed),
    temperature: num(v.temperature),
    maxAttempts: num(v['max-attempts']),
    maxInputTokens: num(v['max-input-tokens']),
    maxOutputTokens: num(v['max-output-tokens']),
    concurrency: num(v.concurrency),
    verify: !v['no-verify'],
    characterize: !v['no-characterize'],
    searchBudget: num(v['search-budget']),
    runs: num(v.runs),
    rounds: num(v.rounds),
    roundTokens: num(v['round-tokens']),
    testTimeout: num(v['test-timeout']),
    mutation: !v['no-mutation'],
    mutationBudget: num(v['mutation-budget']),
    commit: v.commit,
    intoExisting: v['into-existing'],
    confidenceThreshold: num(v['confidence-threshold']),
    acceptLowConfidence: v['accept-low-confidence'],
  });
}

export async function generate(positionals: string[], v: FlagValues, signal: AbortSignal): Promise<number> {
  const ws = await workspaceArg(positionals[0]);
  const provider = defaultProvider(v.provider, process.env);
  const llm = endpointSettings(provider, v, process.env);
  const params = paramsFromFlags(v, provider);
  const scope = await resolveScope(ws, { only: v.only, changedSince: v['changed-since'] });
  if (scope) params.scope = scope;
  Object.assign(params, runPrices(provider, await priceTableOption(v, process.env), Boolean(llm.apiKey)));
  const d = await pipelineDeps(ws, llm, approverFor(v.yes), signal, riskFlags(v.risk), stderrEvents(logLevelOf(v)), scaleFlags(v));
  const runId = newRunId();
  const coverage = {
    lcov: v.lcov,
    cobertura: v.cobertura,
    min: minCoverageArg(v['min-coverage']),
    minMutation: minCoverageArg(v['min-mutation-score'], '--min-mutation-score'),
  };
  if (!v.record) {
    // An earlier run with the same settings: only what changed since, or nothing at all (app/incremental.ts).
    const sources = sourceHashes(ws);
    const extra = sources ? { sources } : {};
    if (!v.full && !scope) {
      Object.assign(params, await prepareParams(d, params, runId));
      const plan = await planIncremental(d.store, params, sources);
      if (plan.kind === 'unchanged')
        return finish(await reuseRun(d, plan.from, runId, { sources: sources!, reuse: plan.reuse }), d.store, ws, v.json, coverage);
      if (plan.kind === 'scoped') {
        params.scope = plan.scope;
        Object.assign(extra, { reuse: plan.reuse });
      }
    }
    return finish(await startRun(d, params, runId, extra), d.store, ws, v.json, coverage);
  }
  Object.assign(params, await prepareParams(d, params, runId)); // before the header: the recording keeps them
  const { deps: recording, recorder } = recordedDeps(d, params, runId, path.resolve(v.record), [
    ...secretsOf(llm),
    ...scaleSecrets(scaleFlags(v)),
  ]);
  try {
    const run = await startRun(recording, params, runId);
    err(`amtp: recorded to ${v.record}`);
    return await finish(run, d.store, ws, v.json, coverage);
  } finally {
    recorder.close();
  }
}

/** --store, --cache, --queue as given (their environment variables apply in app/scale.ts). */
const scaleFlags = (v: FlagValues) => ({ store: v.store, cache: v.cache, queue: v.queue });

async function existingRun(positionals: string[], v: FlagValues): Promise<{ ws: string; store: RunStore; run: RunRecord }> {
  const ws = await workspaceArg(positionals[1]);
  const store = openRunStore(ws, storeUrl(v.store));
  // Only a run this person created here: a run record that came with the repository is never resumed or approved.
  const run = await store.getOwnRun(positionals[0]);
  return { ws, store, run };
}

export async function resume(positionals: string[], v: FlagValues, signal: AbortSignal): Promise<number> {
  const { ws, store, run } = await existingRun(positionals, v);
  const llm = endpointSettings(run.params.provider, v, process.env);
  // The risks the run started with, and this command's --risk over them.
  const risk = { ...sealedRisks(run.id, ws, run.risks), ...riskFlags(v.risk) };
  const d = await pipelineDeps(ws, llm, approverFor(v.yes), signal, risk, stderrEvents(logLevelOf(v)), scaleFlags(v));
  return finish(await resumeRun(d, run.id), store, ws, v.json);
}

export async function approve(positionals: string[], v: FlagValues, signal: AbortSignal): Promise<number> {
  const { ws, store, run } = await existingRun(positionals, v);
  const pending = run.approvals.filter((a) => a.decision === 'pending');
  if (!pending.length) throw new UsageError(`run ${run.id} has no pending approvals (status ${run.status})`);
  const decision = v.reject ? 'rejected' : 'approved';
  const now = new Date().toISOString();
  const saved = await store.saveRun({
    ...run,
    approvals: run.approvals.map((a) =>
      a.decision === 'pending' ? sealApproval(run.id, ws, { ...a, decision, note: v.note, decidedBy: 'cli approve', decidedAt: now }) : a,
    ),
    // Pending files are settled again on resume, now with a decision on record.
    files: run.files.filter((f) => f.action !== 'pending'),
  });
  err(`amtp: ${decision} ${pending.length} action(s) of run ${run.id}`);
  const d = await pipelineDeps(
    ws,
    endpointSettings(run.params.provider, {}, process.env),
    deferAll,
    signal,
    // The risks the run started with: a tool the person made medium does not ask again after this approval.
    sealedRisks(run.id, ws, run.risks),
    stderrEvents(logLevelOf(v)),
    scaleFlags(v),
  );
  return finish(await resumeRun(d, saved.id), store, ws, v.json);
}
