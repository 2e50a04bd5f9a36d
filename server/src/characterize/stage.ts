// The 'characterize' stage, between the Test Case Generator and the Test Engineer: runs the exported
// functions that have no documented result (targets.ts) in the sandbox and keeps what they did as
// planned cases (case.ts), which replace those functions' existence checks in the plan the engineer
// gets (plan.ts, read through server/src/pipeline/testPlan.ts). Running code is `tests.run`: the
// request has the run-wide id, so its one decision also answers the verifier's test run. Each
// module's result is stored as soon as it is done, so a resumed run does not redo finished modules.
import * as path from 'node:path';
import { CancelledError } from '../core/errors';
import { crashPoint } from '../core/faults';
import type { CharacterizationRecord, RunRecord } from '../core/run';
import type { Characterization, ModuleCharacterizationDoc, TestCase } from '../contracts/types';
import { requireValid } from '../contracts/validate';
import { confinementPhrase, networkConfinement } from '../frameworks/run/confine';
import { runWideApprovalId } from '../gateway/approvers';
import type { Stage, StageContext } from '../pipeline/stage';
import type { ModuleCharacterization } from './characterize';
import { charToTestCase } from './case';
import { characterizerFor, type Characterizer } from './language';
import type { CharRunAccess } from '../pipeline/deps';
import { pyCharToTestCase } from './python/case';
import { characterizeApproved, type CharRunResult } from './run';
import { charJobs, type CharJob } from './targets';

const ENDED = new Set<CharacterizationRecord['status']>(['done', 'skipped', 'rejected']);

function fresh(over: Partial<CharacterizationRecord> = {}): CharacterizationRecord {
  return { status: 'running', modules: [], targets: 0, kept: 0, replaced: 0, stable: 0, unstable: 0, unusable: 0, ...over };
}

/** One module's result as the contract's document: the kept calls as cases, and the existence cases they replace. */
export function moduleDoc(job: CharJob, m: ModuleCharacterization): ModuleCharacterizationDoc {
  const language = job.language === 'typescript' ? 'typescript' : 'javascript';
  const cases: TestCase[] = [];
  const seen = new Set<string>();
  const replaces = new Set<string>();
  for (const c of m.cases) {
    const reach = job.reach.get(c.path.join('.'));
    if (!reach) continue;
    const tc = job.language === 'python' ? pyCharToTestCase(c, job.module) : charToTestCase(c, job.module, language, reach);
    if (!tc || seen.has(tc.id)) continue;
    seen.add(tc.id);
    cases.push(tc);
    reach.replaces.forEach((id) => replaces.add(id));
  }
  return {
    module: job.module,
    targets: job.targets.length,
    cases,
    replaces: [...replaces],
    stable: m.stable,
    unstable: m.unstable,
    unusable: m.unusable,
  };
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

  const jobs = charJobs(await deps.store.agentOutput(run, 'generator'), await deps.store.agentOutput(run, 'crawler'));
  const runnable = jobs.filter((j) => characterizerFor(j.language));
  if (!runnable.length) {
    const langs = [...new Set(jobs.map((j) => j.language))].join(', ');
    return skip(jobs.length ? `no characterization engine for ${langs} yet` : 'no exported function without a documented result');
  }
  await save((r) => {
    r.stage = 'characterize';
    r.characterization = fresh({ modules: r.characterization?.modules ?? [], confinement: networkConfinement() });
  });
  const result = await runJobs(ctx, runnable);
  if (!result.ran) return stopped(ctx, result.decision);
  // Finished modules stay saved; the orchestrator records the cancellation and a resume goes on from them.
  if (deps.signal?.aborted) throw new CancelledError();
  await merge(ctx, runnable);
};

/** Asks once (the run-wide `tests.run`), then characterizes every module not finished before, saving each as it ends. */
async function runJobs(ctx: StageContext, runnable: CharJob[]): Promise<CharRunResult> {
  const { deps, state, save } = ctx;
  const runId = state.run.id;
  const abs = (j: CharJob) => path.join(deps.workspace, j.module);
  const byPath = new Map(runnable.map((j) => [abs(j), j]));
  const finished = new Set(state.run.characterization!.modules.map((m) => m.module));
  const n = runnable.filter((j) => !finished.has(j.module)).length;
  return characterizeApproved(
    ctx.gateway,
    deps.workspace,
    runnable.map((j) => ({ modulePath: abs(j), targets: j.targets, characterizer: tapped(deps.charRuns, j) })),
    {
      trusted: () => !deps.canExecute || deps.canExecute(),
      approvalId: runWideApprovalId(runId, 'tests.run'),
      summary: `Run workspace code: ${n} module(s) in a sandbox (${confinementPhrase()}) to pin what their undocumented functions do (characterization tests), then the tests this run writes (one approval covers both)`,
      signal: deps.signal,
      skip: new Set(runnable.filter((j) => finished.has(j.module)).map(abs)),
      done: async (m) => {
        const job = byPath.get(m.module)!;
        const doc: Characterization = { schema_version: '1', modules: [moduleDoc(job, m)] };
        requireValid('characterization', doc, `characterization of ${job.module}`);
        const artifact = await deps.store.putArtifact(runId, 'characterization', doc, { source: 'execution' });
        await save((r) => {
          r.characterization!.modules.push({ module: job.module, artifactId: artifact.id });
        });
        crashPoint('characterize:module');
      },
    },
  );
}

/** The module's engine, through the recording's tap or the replay's answers when there is one. */
function tapped(access: CharRunAccess | undefined, j: CharJob): Characterizer | undefined {
  const engine = characterizerFor(j.language);
  if (!engine || !access) return engine;
  return (modulePath, root, targets, opts) =>
    access.run({ module: j.module, targets }, root, () => engine(modulePath, root, targets, opts));
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
async function merge(ctx: StageContext, jobs: CharJob[]): Promise<void> {
  const { deps, state } = ctx;
  const run: RunRecord = state.run;
  const saved = new Map(run.characterization!.modules.map((m) => [m.module, m.artifactId]));
  const ids = jobs.flatMap((j) => (saved.has(j.module) ? [saved.get(j.module)!] : []));
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
    };
  });
}
