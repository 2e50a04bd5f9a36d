// The mutation engine as the coverage rounds' mutant provider (core/mutants.ts): the mutation phase's
// survivors within a function, each as a diff of that function, and which of them a round's new test
// kills — that one test run against only those mutants (MutationRequest.only), confined like every
// test run. A kill is counted in the run's mutation score (mutation/score.ts addKills), so the score
// is that of the suite the run keeps, rounds included.
import type { MutantProvider } from '../core/mutants';
import type { MutationRecord } from '../core/mutation';
import { addKills, mutantDiff, mutantKey, runMutation } from '../mutation';
import { mutationPlan } from './mutationPhase';
import type { VerifyState } from './state';

/** Survivors of one function a round shows the engineer at most (the rest wait for the next round). */
const SURVIVORS_PER_FUNCTION = 10;

/** @param sources the text of each file a survivor is in, as the mutation phase mutated it (mutationPhase.ts) */
export function mutantProvider(s: VerifyState, record: MutationRecord, sources: Record<string, string>): MutantProvider {
  return {
    survivors(t) {
      const fn = { startLine: t.line, endLine: t.endLine, source: '' };
      const of = record.survivors.filter((m) => m.file === t.file && m.start.line >= t.line && m.end.line <= t.endLine);
      const text = sources[t.file];
      if (!of.length || text === undefined) return Promise.resolve([]);
      return Promise.resolve(of.slice(0, SURVIVORS_PER_FUNCTION).map((m) => ({ id: m.id, diff: mutantDiff(m, text, fn) })));
    },
    async kills(testFile, caseId, mutants) {
      const asked = new Set(mutants.map((m) => m.id));
      const wanted = record.survivors.filter((m) => asked.has(m.id));
      if (!wanted.length) return [];
      const idOf = new Map(wanted.map((m) => [mutantKey(m), m.id]));
      const pids: number[] = [];
      const targets = [...new Set(wanted.map((m) => m.file))];
      const exec = () =>
        runMutation({
          workspace: s.ctx.workspace,
          plan: mutationPlan(s),
          tests: [{ caseId, file: testFile, target: wanted[0].file }],
          targets,
          only: new Set(idOf.keys()),
          budgetMs: record.budgetSeconds * 1000,
          timeoutMs: s.ctx.params.timeoutSeconds * 1000,
          signal: s.ctx.signal,
          onSpawn: (pid) => pids.push(pid),
        });
      const key = { tests: [{ caseId, file: testFile }], targets, only: [...idOf.keys()].sort() };
      const outcome = s.ctx.mutate ? await s.ctx.mutate(key, s.ctx.workspace, exec) : await exec();
      s.runner.executions += outcome.executions;
      await s.ctx.update((v) => {
        v.pids.push(...pids);
        v.executions = s.runner.executions;
      });
      const killed = outcome.mutants
        .filter((m) => (m.status === 'killed' || m.status === 'timeout') && m.killedBy.includes(caseId))
        .flatMap((m) => idOf.get(mutantKey(m)) ?? []);
      addKills(record, caseId, killed);
      return killed;
    },
  };
}
