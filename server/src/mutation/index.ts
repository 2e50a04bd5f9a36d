// Mutation analysis (docs/mutation.md): one engine per language behind one call. The verifier uses it
// for the keep rule and the score; the guide (guide.ts) exposes mutants to the offline search and the
// LLM rounds.
import { CancelledError } from '../core/errors';
import { mutateJs } from './js/jsEngine';
import { mutatePython } from './python/pyEngine';
import type { MutationOutcome, MutationRequest } from './types';

export type { MutantResult, MutationOutcome, MutationRequest, MutationRunPlan } from './types';
export { mutantKey } from './types';
export { addKills, mutationRecord, skippedMutation } from './score';
export { mutantDiff } from './guide';

/** Runs the language's engine; a failure of the engine itself is an outcome with `skipped`, never a thrown error (cancellation aside). */
export async function runMutation(req: MutationRequest): Promise<MutationOutcome> {
  const started = Date.now();
  try {
    return req.plan.framework === 'pytest' ? await mutatePython(req) : await mutateJs(req);
  } catch (e) {
    if (e instanceof CancelledError || req.signal?.aborted) throw e instanceof CancelledError ? e : new CancelledError();
    return {
      tool: req.plan.framework === 'pytest' ? 'AMTP ast operators' : 'StrykerJS instrumenter',
      mutants: [],
      files: [],
      failedFiles: [],
      excludedTests: [],
      executions: 0,
      elapsedMs: Date.now() - started,
      budgetMs: req.budgetMs,
      skipped: `the mutation engine failed: ${e instanceof Error ? e.message : String(e)}`,
    };
  }
}
