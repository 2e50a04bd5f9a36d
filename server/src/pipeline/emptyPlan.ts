// A run whose generator planned no case has nothing to write or run: it stops there as
// needs_review (exit 3) with a reason that says what the crawler found, instead of going on to
// stages that expect a plan. A person has to look: the package exports nothing AMTP can see, or
// everything it exports was left out for a reason listed here. An incremental run (app/incremental.ts)
// whose reached modules plan nothing completes instead: the earlier run's tests stand.
import type { Stage } from './stage';

export const emptyPlanStage: Stage = async (ctx) => {
  const { deps, state } = ctx;
  const run = state.run;
  if (run.status !== 'running') return;
  if (run.activities.find((a) => a.agent === 'generator')?.status !== 'completed') return;
  const plan = await deps.store.agentOutput(run, 'generator');
  if (plan.cases.length) return;
  const map = await deps.store.agentOutput(run, 'crawler');
  const code = map.languages.filter((l) => /^(JavaScript|TypeScript|Python)$/.test(l.name));
  const files = code.map((l) => `${l.files} ${l.name} file(s)`).join(', ') || 'no JavaScript, TypeScript or Python file';
  const exported = map.key_files.reduce((n, f) => n + f.symbols.filter((s) => s.exported).length, 0);
  const notPlanned = plan.not_planned ?? [];
  const skipped = notPlanned.slice(0, 3).map((n) => `${n.target}: ${n.reason}`);
  const why = skipped.length
    ? `; not planned: ${skipped.join('; ')}${notPlanned.length > skipped.length ? ` (and ${notPlanned.length - skipped.length} more)` : ''}`
    : '';
  const reason = `no test case was planned (the crawler found ${exported} exported symbol(s) in ${files}${why})`;
  // An incremental run planned only the modules a change reached: with nothing to plan there, the earlier run's tests stand.
  if (run.reuse)
    return void (await ctx.save((r) => {
      r.status = 'completed';
      r.stage = 'done';
      r.reason = `nothing to test in what the change reached (${run.reuse!.reached.join(', ')}): ${reason}; the tests of run ${run.reuse!.from} stand`;
    }));
  await ctx.save((r) => {
    r.status = 'needs_review';
    r.reason = `nothing to test: ${reason}`;
  });
};
