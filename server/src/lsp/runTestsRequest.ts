// amtp/runTests: the person ran tests from the editor (Run Generated Tests, the Testing view). Their
// click is the approval, and a run's gateway records and audits it (app/testRun.ts): AMTP's files of
// that run (runTests.ts), or the person's own test files with the project's runner (runOwnFiles.ts).
import { commandApproval, gatedTestRun } from '../app/testRun';
import { DEFAULT_VERIFY, WRITTEN_ACTIONS } from '../core/run';
import type * as P from '../protocol';
import type { RunStore } from '../store/types';
import { confinedFiles, runOwnTestFiles } from './runOwnFiles';
import { runWrittenTests } from './runTests';

export interface TestRunContext {
  store: RunStore;
  workspace: string;
  settings: P.ServerSettings;
  /** a pipeline or a test run is working on this run */
  busy(runId: string): boolean;
  /** the test runs under way, to cancel them (amtp/cancel) */
  testRuns: Map<string, AbortController>;
}

export async function runTestsRequest(ctx: TestRunContext, p: P.RunTestsParams): Promise<P.RunTestsResult> {
  const ownFiles = p.files?.length ? await confinedFiles(ctx.workspace, p.files) : undefined;
  const run = p.runId
    ? await ctx.store.getOwnRun(p.runId)
    : (await ctx.store.listRuns()).reverse().find((r) => r.files.some((f) => WRITTEN_ACTIONS.has(f.action)));
  if (!run && ownFiles)
    throw new Error(
      'running your own tests is recorded in an AMTP run (its approvals and audit), and there is none yet: generate tests once, or run yours with your test command',
    );
  if (!run) throw new Error('No run has written tests yet.');
  if (ctx.busy(run.id)) throw new Error(`run ${run.id} is busy: wait for it to finish`);
  const controller = new AbortController();
  ctx.testRuns.set(run.id, controller);
  const timeoutSeconds = ctx.settings.testTimeoutSeconds ?? DEFAULT_VERIFY.timeoutSeconds;
  const which = ownFiles
    ? `${ownFiles.length} of your own test file(s)): those files`
    : `${p.caseIds?.length ? `${p.caseIds.length} case(s)` : 'every written case'}${p.coverage ? ', with coverage' : ''}): the run's test files`;
  try {
    const result = await gatedTestRun({
      store: ctx.store,
      workspace: ctx.workspace,
      runId: run.id,
      approver: commandApproval('Run Generated Tests in VS Code'),
      risk: ctx.settings.riskOverrides,
      summary: `Run Generated Tests in VS Code (${which} with the project's runner (executes workspace code; killed after ${timeoutSeconds} s)`,
      run: () =>
        ownFiles
          ? runOwnTestFiles(ctx.workspace, run.id, { files: ownFiles, ownTests: p.ownTests, timeoutSeconds, signal: controller.signal })
          : runWrittenTests(ctx.store, ctx.workspace, run, {
              caseIds: p.caseIds,
              ownTests: p.ownTests,
              coverage: p.coverage,
              timeoutSeconds,
              signal: controller.signal,
            }),
    });
    if (!result.ran)
      throw new Error(`the tests were not run: ${result.approval.decision}${result.approval.note ? ` (${result.approval.note})` : ''}`);
    return result.value;
  } finally {
    ctx.testRuns.delete(run.id);
  }
}
