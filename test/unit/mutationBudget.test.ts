// The mutation phase's budget (server/src/core/mutation.ts): a budget the person gives is kept as
// given; the default one is shortened, never below its floor, so a default run ends within two minutes.
import { strict as assert } from 'node:assert';
import { toServerSettings } from '../../client/src/model/settings';
import {
  DEFAULT_MUTATION,
  fittedBudget,
  MIN_FITTED_MUTATION_SECONDS,
  mutationParams,
  RUN_TARGET_SECONDS,
} from '../../server/src/core/mutation';

describe('mutation budget', () => {
  it('only the default budget may be shortened: a budget given on the command line or in settings is not', () => {
    assert.deepEqual(mutationParams(undefined, undefined), { enabled: true, budgetSeconds: 60, fitsRun: true });
    assert.deepEqual(mutationParams(true, 0), { enabled: true, budgetSeconds: 60, fitsRun: true });
    assert.deepEqual(mutationParams(true, 300), { enabled: true, budgetSeconds: 300 });
    assert.deepEqual(fittedBudget(mutationParams(true, 300), 110), { seconds: 300 });
  });

  it('a run that reaches mutation early keeps the whole default budget', () => {
    assert.deepEqual(fittedBudget(mutationParams(undefined, undefined), 12), { seconds: DEFAULT_MUTATION.budgetSeconds });
  });

  it('a long run gets what is left of two minutes, after the phases that follow mutation, and says why', () => {
    const fitted = fittedBudget(mutationParams(undefined, undefined), 81);
    // 120 s, less 15 s for the keep filter, rewrite, confirm and start-up, less the 81 s already worked
    assert.equal(fitted.seconds, RUN_TARGET_SECONDS - 15 - 81);
    assert.match(fitted.shortened ?? '', /default 60 s budget, shortened to 24 s: the run had worked 81 s before mutation/);
    assert.match(fitted.shortened ?? '', /--mutation-budget keeps a budget as given/);
  });

  it('never goes below the floor', () => {
    assert.equal(fittedBudget(mutationParams(undefined, undefined), 101).seconds, MIN_FITTED_MUTATION_SECONDS);
    assert.equal(fittedBudget(mutationParams(undefined, undefined), 119).seconds, MIN_FITTED_MUTATION_SECONDS);
    assert.equal(MIN_FITTED_MUTATION_SECONDS, 20);
  });

  it('a run that already took two minutes keeps the whole budget: shortening cannot bring it in time', () => {
    assert.deepEqual(fittedBudget(mutationParams(undefined, undefined), RUN_TARGET_SECONDS), { seconds: 60 });
    assert.deepEqual(fittedBudget(mutationParams(undefined, undefined), 500), { seconds: 60 });
  });

  it("VS Code's setting at its default (0) leaves the budget to the server, which may fit it; a number set is sent as given", () => {
    const settings = (budget: number) => toServerSettings((k: string) => (k === 'mutationBudgetSeconds' ? budget : undefined));
    assert.equal(settings(0).mutationBudgetSeconds, undefined);
    assert.equal(settings(90).mutationBudgetSeconds, 90);
  });
});
