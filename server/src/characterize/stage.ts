// The 'characterize' stage, between the Test Case Generator and the Test Engineer: runs the exported
// functions that have no documented result (targets.ts) in the sandbox and keeps what they did as
// planned cases (server/src/search/case.ts, python/case.ts), which replace those functions' existence checks in the plan the engineer
// gets (server/src/pipeline/testPlan.ts). Running code is `tests.run`: the
// request has the run-wide id, so its one decision also answers the verifier's test run. Each
// module's result is stored as soon as it is done, so a resumed run does not redo finished modules.
import { statSync } from 'node:fs';
import { CancelledError } from '../core/errors';
import { crashPoint } from '../core/faults';
import type { CharacterizationRecord, RunRecord } from '../core/run';
import type { Characterization } from '../contracts/types';
import { requireValid } from '../contracts/validate';
import { confinementPhrase, networkConfinement } from '../frameworks/run/confine';
import { runWideApprovalId } from '../gateway/approvers';
import type { Stage, StageContext } from '../pipeline/stage';
import { DEFAULT_SEARCH_BUDGET_SECONDS } from '../search/budget';
import { characterizeApproved } from './run';
import { clockCut, SEARCH_WORKERS, stageJobs, searchTotals, type StageJob } from './stageJobs';

const ENDED = new Set<CharacterizationRecord['status']>(['done', 'skipped', 'rejected']);

function fresh(over: Partial<CharacterizationRecord> = {}): CharacterizationRecord {
  return { status: 'running', modules: [], targets: 0, kept: 0, replaced: 0, stable: 0, unstable: 0, unusable: 0, ...over };
}

export const characterizeStage: Stage = async (ctx) => {
  const { deps, state, save } = ctx;
  const run = state.run;
  if (run.status !== 'running' || run.params.characterize === undefined) return; // absent: library callers, replays
  if (ENDED.has(run.characterization?.status ?? 'running') && run.characterization) return;
  if (run.activities.find((a) => a.agent === 'engineer')?.status === 'completed') return; // the engineer already has its plan
  const skip = (reason: string) =>
    save((r) => {
      r.characterization = fresh({ ...r.characterization, status: 'skipped', reason });
    }).then(() => undefined);
  if (!run.params.characterize) return skip('characterization is off (--no-characterize)');
  if (deps.canExecute && !deps.canExecute()) return skip('the workspace is not trusted: code never runs in Restricted Mode');
  // Smoke depth asks for load-and-shape checks only, even where docs give results: nothing to pin.
  if (run.params.depth === 'smoke') return skip('depth smoke plans existence checks only');

  const plan = await deps.store.agentOutput(run, 'generator');
  const map = await deps.store.agentOutput(run, 'crawler');
  let cached = 0;
  const jobs = await stageJobs(ctx, plan, map, () => cached++);
  if (!jobs.length) return skip('no module to characterize: the plan has no JavaScript, TypeScript or Python module with exports');
  await save((r) => {
    r.stage = 'characterize';
    r.characterization = fresh({ modules: r.characterization?.modules ?? [], confinement: networkConfinement() });
  });
  const started = Date.now();
  const result = await runJobs(ctx, largestFirst(jobs));
  if (!result.ran) return stopped(ctx, result.decision);
  // Finished modules stay saved; the orchestrator records the cancellation and a resume goes on from them.
  if (deps.signal?.aborted) throw new CancelledError();
  await merge(
    ctx,
    jobs.map((j) => j.module),
    (Date.now() - started) / 1000,
    cached,
  );
};

/**
 * The modules in the order they run: the largest source first, so the slowest module does not start
 * last while the other worker idles (node-forge: jsbn.js started 33 s in and ran 48 s alone). Each
 * module's result is its own, so the order changes only the wall time; the merge keeps plan order.
 */
function largestFirst(jobs: StageJob[]): StageJob[] {
  const size = (j: StageJob) => {
    try {
      return statSync(j.modulePath).size;
    } catch {
      return 0;
    }
  };
  const sizes = new Map(jobs.map((j) => [j, size(j)]));
  return [...jobs].sort((a, b) => sizes.get(b)! - sizes.get(a)!);
}

/** Asks once (the run-wide `tests.run`), then characterizes every module not finished before, saving each as it ends. */
async function runJobs(ctx: StageContext, jobs: StageJob[]) {
  const { deps, state, save } = ctx;
  const runId = state.run.id;
  const finished = new Set(state.run.characterization!.modules.map((m) => m.module));
  const byPath = new Map(jobs.map((j) => [j.modulePath, j]));
  const n = jobs.filter((j) => !finished.has(j.module)).length;
  return characterizeApproved(ctx.gateway, deps.workspace, jobs, {
    trusted: () => !deps.canExecute || deps.canExecute(),
    approvalId: runWideApprovalId(runId, 'tests.run'),
    summary: `Run workspace code: ${n} module(s) in a sandbox (${confinementPhrase()}) to pin what their code does (generated call sequences, characterization tests), then the tests this run writes (one approval covers both)`,
    signal: deps.signal,
    concurrency: SEARCH_WORKERS,
    skip: new Set(jobs.filter((j) => finished.has(j.module)).map((j) => j.modulePath)),
    done: async (j, doc) => {
      const job = byPath.get(j.modulePath)!;
      const content: Characterization = { schema_version: '1', modules: [doc] };
      requireValid('characterization', content, `characterization of ${job.module}`);
      const artifact = await deps.store.putArtifact(runId, 'characterization', content, { source: 'execution' });
      await save((r) => {
        r.characterization!.modules.push({ module: job.module, artifactId: artifact.id });
      });
      crashPoint('characterize:module');
    },
  });
}

async function stopped(ctx: StageContext, decision: string): Promise<void> {
  await ctx.save((r) => {
    const c = r.characterization!;
    if (decision === 'restricted') {
      c.status = 'skipped';
      c.reason = 'the workspace is not trusted: code never runs in Restricted Mode';
    } else if (decision === 'pending') {
      r.status = 'awaiting_approval';
      r.reason = `running workspace code (characterization, then the written tests) waits for approval: amtp approve ${r.id} [--reject]`;
      c.status = 'awaiting_approval';
      c.reason = r.reason;
    } else {
      c.status = 'rejected';
      c.reason = `running workspace code was ${decision === 'timeout' ? 'not approved in time' : 'rejected'}: nothing was executed`;
    }
  });
}

/** Every finished module's result, in plan order, as one artifact; the record gets the counts the summary shows. */
async function merge(ctx: StageContext, order: string[], seconds: number, cached: number): Promise<void> {
  const { deps, state } = ctx;
  const run: RunRecord = state.run;
  const saved = new Map(run.characterization!.modules.map((m) => [m.module, m.artifactId]));
  const ids = order.flatMap((m) => (saved.has(m) ? [saved.get(m)!] : []));
  const modules = (await Promise.all(ids.map((id) => deps.store.getArtifact(run.id, id)))).flatMap(
    (a) => (a.content as Characterization).modules,
  );
  const doc: Characterization = { schema_version: '1', modules };
  requireValid('characterization', doc, 'characterization merged from its modules');
  const artifact = await deps.store.putArtifact(run.id, 'characterization', doc, { merged_from: ids });
  const sum = (k: 'stable' | 'unstable' | 'unusable' | 'targets') => modules.reduce((s, m) => s + m[k], 0);
  await ctx.save((r) => {
    r.characterization = {
      ...r.characterization!,
      status: 'done',
      artifactId: artifact.id,
      targets: sum('targets'),
      kept: modules.reduce((s, m) => s + m.cases.length, 0),
      replaced: modules.reduce((s, m) => s + m.replaces.length, 0),
      stable: sum('stable'),
      unstable: sum('unstable'),
      unusable: sum('unusable'),
      seconds: Math.round(seconds * 10) / 10,
      ...(cached ? { cached } : {}),
      ...searchTotals(modules, r.params.searchBudget ?? DEFAULT_SEARCH_BUDGET_SECONDS),
      ...clockCut(modules),
    };
  });
}
