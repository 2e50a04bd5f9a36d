// Phase "mutation" (docs/mutation.md), after judge and before the keep filter: the files under test
// are mutated and every test that passed every run is run against the mutants that it reaches,
// within the budget. It gives the keep filter which mutants each test kills (coveragePhase.ts,
// keepRule.ts) and the run its mutation score. Because the keep filter keeps a killer of every killed
// mutant, the score of every passing test is the kept suite's score.
import { fittedBudget, type MutationRecord } from '../core/mutation';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mutationRecord, runMutation, skippedMutation, type MutationOutcome, type MutationRunPlan } from '../mutation';
import type { VerifyState } from './state';

export interface MutationPhaseOutcome {
  record: MutationRecord;
  /** case id → the mutants it kills; absent when mutation did not run */
  kills?: Map<string, Set<string>>;
  /** the text of each file a survivor is in, as it was mutated (the rounds show survivors as diffs of it) */
  sources?: Record<string, string>;
}

interface MutationRun {
  outcome: MutationOutcome;
  sources: Record<string, string>;
}

function survivorSources(workspace: string, outcome: MutationOutcome): Record<string, string> {
  const files = new Set(outcome.mutants.filter((m) => m.status === 'survived' || m.status === 'no_coverage').map((m) => m.file));
  return Object.fromEntries([...files].sort().map((f) => [f, readFileSync(join(workspace, f), 'utf8')]));
}

/** Undefined when the run has no mutation setting (runs made before it, library callers). */
export async function mutationPhase(s: VerifyState, elapsedSeconds: number): Promise<MutationPhaseOutcome | undefined> {
  const { ctx } = s;
  const params = ctx.params.mutation;
  if (!params) return undefined;
  const budget = fittedBudget(params, elapsedSeconds);
  const skip = (reason: string) => ({ record: skippedMutation(reason, params.budgetSeconds) });
  if (!params.enabled) return skip('mutation is off (--no-mutation)');
  const tests = s.stable.map((t) => ({ caseId: t.id, file: t.file.path, target: s.caseOf.get(t.id)?.target.file }));
  const targets = [...new Set(tests.map((t) => t.target).filter((f): f is string => !!f))];
  if (!tests.length) return skip('no test passed every run');
  if (!targets.length) return skip('no file under test is known');
  const pids: number[] = [];
  const exec = async (): Promise<MutationRun> => {
    const outcome = await runMutation({
      workspace: ctx.workspace,
      plan: mutationPlan(s),
      tests,
      targets,
      budgetMs: budget.seconds * 1000,
      timeoutMs: ctx.params.timeoutSeconds * 1000,
      signal: ctx.signal,
      onSpawn: (pid) => pids.push(pid),
      info: ctx.info,
      ...(ctx.productFiles ? { cache: { sources: ctx.productFiles, budgetSeconds: params.budgetSeconds } } : {}),
    });
    return { outcome, sources: survivorSources(ctx.workspace, outcome) };
  };
  // A recording keeps what the engine found (and the text of the files the survivors are in); a replay answers from it and runs nothing.
  const key = { tests: tests.map(({ caseId, file }) => ({ caseId, file })), targets, only: null };
  const { outcome, sources } = ctx.mutate ? await ctx.mutate(key, ctx.workspace, exec) : await exec();
  s.runner.executions += outcome.executions;
  await ctx.update((v) => {
    v.pids.push(...pids);
    v.executions = s.runner.executions;
  });
  if (outcome.skipped) return skip(outcome.skipped);
  const record = { ...mutationRecord(outcome, budget.seconds), ...(budget.shortened ? { budgetNote: budget.shortened } : {}) };
  if (budget.shortened) ctx.info(`verify: mutation budget: ${budget.shortened}`);
  ctx.info(
    `verify: mutation score ${record.score ?? '—'}% (${record.counts.killed + record.counts.timeout} killed, ${record.counts.survived} survived, ${record.counts.noCoverage} not covered, ${record.counts.notRun} not run) in ${record.seconds} s`,
  );
  const kills = new Map<string, Set<string>>();
  for (const m of outcome.mutants)
    if (m.status === 'killed' || m.status === 'timeout') for (const t of m.killedBy) kills.set(t, (kills.get(t) ?? new Set()).add(m.id));
  return { record, kills, sources };
}

/** How the mutants' test runs start: the verifier's own plan (its runner, confinement and env allow-list apply). */
export function mutationPlan(s: VerifyState): MutationRunPlan {
  const { plan } = s.ctx;
  return { framework: plan.framework, binDir: plan.binDir, args: plan.args, env: plan.env, python: plan.python };
}
