// What `amtp mcp`'s tests_generate and tests_run do: the real pipeline and the project's runner,
// with the approver the MCP layer built for the call (it asks the MCP client). Every high-risk
// action goes through a run's gateway, so it is asked, recorded and audited as in the CLI.
// tests_review and tests_lessons: mcpReview.ts and mcpLessons.ts.
import { promises as fsp } from 'node:fs';
import type { EngineerOutput } from '../contracts/types';
import type { ApprovalRecord, RunRecord } from '../core/run';
import type { RiskOverrides } from '../gateway/policy';
import type { ProviderSettings } from '../app/providers';
import { runTests, type RunResult } from '../frameworks/runner';
import { keptPaths } from '../git/keptFiles';
import type { GenerateInput, RunTestsInput, RunTools, ToolCallContext, ToolOutput } from '../mcp/runTools';
import { NO_ELICITATION } from '../mcp/elicitApprover';
import { startRun } from '../pipeline/orchestrator';
import { resolveScope } from '../app/scope';
import { errorMessage } from '../core/errors';
import { ignoredRunsNote, type IgnoredRuns } from '../store/runRecords';
import { LowdbStore } from '../store/lowdb';
import type { RunStore } from '../store/types';
import { summarize } from '../pipeline/summary';
import { gatedTestRun } from '../app/testRun';
import { resolveInside } from '../util/safePath';
import { planRun, type RunPlan } from '../verifier/runPlan';
import { summaryText } from './output';
import { mcpLessons } from './mcpLessons';
import { mcpReview } from './mcpReview';
import { pipelineDeps, runParams } from './pipeline';

export interface McpRunSettings {
  workspace: string;
  /** the person's choice (flags or environment), never the calling model's */
  llm: ProviderSettings;
  risk: RiskOverrides;
}

/** One pipeline call at a time: two runs would write the same files, and a run's lock is per process. */
export function mcpRuns(s: McpRunSettings): RunTools {
  let busy: string | undefined;
  const exclusive = async (what: string, fn: () => Promise<ToolOutput>): Promise<ToolOutput> => {
    if (busy) return { text: `AMTP is busy with ${busy}; call again when it has finished`, structured: { busy }, isError: true };
    busy = what;
    try {
      return await fn();
    } finally {
      busy = undefined;
    }
  };
  return {
    generate: (input, ctx) => exclusive('tests_generate', () => generate(s, input, ctx)),
    runTests: (input, ctx) => exclusive('tests_run', () => runTestsOnce(s, input, ctx)),
    review: (input, ctx) => exclusive('tests_review', () => mcpReview(s.workspace, input, ctx)),
    lessons: (input, ctx) => exclusive('tests_lessons', () => mcpLessons(s.workspace, s.risk, input, ctx)),
  };
}

async function generate(s: McpRunSettings, input: GenerateInput, ctx: ToolCallContext): Promise<ToolOutput> {
  const params = runParams({
    depth: input.depth,
    framework: input.framework,
    provider: s.llm.provider,
    verify: input.verify,
    commit: input.commit,
    intoExisting: input.intoExisting,
  });
  let scope;
  try {
    scope = await resolveScope(s.workspace, { only: input.only, changedSince: input.changedSince });
  } catch (e) {
    return { text: errorMessage(e), structured: {}, isError: true };
  }
  if (scope) params.scope = scope;
  const deps = await pipelineDeps(s.workspace, s.llm, ctx.approver, ctx.signal, s.risk, (e) => {
    if (e.type === 'activity') ctx.progress(`${e.agent} (attempt ${e.attempt})`);
    else if (e.type === 'log') ctx.progress(e.message);
  });
  const run = await startRun(deps, params);
  const summary = await summarize(run, deps.store);
  const text = [summaryText(summary), ...refusals(run.approvals), ...ignoredNote((await deps.store.scanRuns()).ignored)].join('\n');
  return { text, structured: { ...summary }, isError: run.status === 'failed' };
}

/** Says plainly which actions did not happen because nobody could be asked. */
function refusals(approvals: ApprovalRecord[]): string[] {
  const refused = approvals.filter((a) => a.decision === 'rejected' && a.note === NO_ELICITATION);
  return refused.length ? ['', `Not done (${refused.map((a) => `${a.tool} ${a.target ?? ''}`.trim()).join('; ')}): ${NO_ELICITATION}`] : [];
}

/** Run records the tools left aside (a repository's, or unreadable): one line for the calling model. */
function ignoredNote(ignored: IgnoredRuns): string[] {
  const note = ignoredRunsNote(ignored);
  return note ? ['', note] : [];
}

async function runTestsOnce(s: McpRunSettings, input: RunTestsInput, ctx: ToolCallContext): Promise<ToolOutput> {
  const store = new LowdbStore(s.workspace);
  const scan = await store.scanRuns();
  const out = await chooseAndRun(s, input, ctx, store, scan.runs);
  return { ...out, text: [out.text, ...ignoredNote(scan.ignored)].join('\n') };
}

async function chooseAndRun(
  s: McpRunSettings,
  input: RunTestsInput,
  ctx: ToolCallContext,
  store: RunStore,
  runs: RunRecord[],
): Promise<ToolOutput> {
  const chosen = await chooseTests(s, input, store, runs);
  if (!('plan' in chosen)) return chosen;
  const { run, plan, files, timeoutSeconds } = chosen;
  const result = await gatedTestRun({
    store,
    workspace: s.workspace,
    runId: run.id,
    approver: ctx.approver,
    risk: s.risk,
    summary: `Run ${files.length} test file(s) once with ${plan.framework} (executes workspace code; killed after ${timeoutSeconds} s): ${files.join(', ')}`,
    target: files.join(', '),
    run: () =>
      runTests(plan.framework, s.workspace, files, {
        binDir: plan.binDir,
        args: plan.args,
        env: plan.env,
        python: plan.python,
        timeoutMs: timeoutSeconds * 1000,
        signal: ctx.signal,
      }),
  });
  if (!result.ran) {
    const a = result.approval;
    return {
      text: `not run: ${a.decision}${a.note ? ` — ${a.note}` : ''}`,
      structured: { runId: run.id, decision: a.decision },
      isError: true,
    };
  }
  return testReport(chosen, result.value);
}

/** What tests_run runs: the files of a run (named, else the latest that kept some), and how. */
interface ChosenTests {
  run: RunRecord;
  plan: RunPlan;
  files: string[];
  timeoutSeconds: number;
}

/** The run, its test files that exist on disk and the plan to run them; a tool error saying why when there is nothing to run. */
async function chooseTests(s: McpRunSettings, input: RunTestsInput, store: RunStore, runs: RunRecord[]): Promise<ChosenTests | ToolOutput> {
  const refuse = (text: string): ToolOutput => ({ text, structured: {}, isError: true });
  const run = input.runId
    ? await store.getOwnRun(input.runId).catch(() => undefined)
    : [...runs].reverse().find((r) => keptPaths(r).length > 0);
  if (!run)
    return refuse(
      input.runId ? `no run ${input.runId} of yours in ${store.location}` : 'no run has written tests yet: call tests_generate first',
    );
  const engineerId = run.activities.find((a) => a.agent === 'engineer')?.artifactId;
  if (!engineerId) return refuse(`run ${run.id} has no Test Engineer output yet (status ${run.status})`);
  const engineer = (await store.getArtifact(run.id, engineerId)).content as unknown as EngineerOutput;
  const files = await existingFiles(s.workspace, input.files ?? keptPaths(run));
  if (!files.length) return refuse('none of the test files exists on disk');
  const plan = planRun(engineer.framework, s.workspace, engineer.command, files);
  if ('cannot' in plan) return refuse(`the tests cannot run here: ${plan.cannot}`);
  return { run, plan, files, timeoutSeconds: run.params.verify?.timeoutSeconds ?? 120 };
}

/** Each test's result for the calling model, with the failures and load errors spelled out in the text. */
function testReport({ run, plan, files, timeoutSeconds }: ChosenTests, r: RunResult): ToolOutput {
  const structured = {
    runId: run.id,
    framework: plan.framework,
    files,
    total: r.total,
    passed: r.passed,
    failed: r.failed,
    timedOut: r.timedOut,
    exitCode: r.exitCode,
    tests: r.tests.map((t) => ({ name: t.name, status: t.status, ...(t.message ? { message: t.message } : {}) })),
    fileErrors: r.fileErrors,
  };
  const lines = [
    `${r.passed} passed, ${r.failed} failed of ${r.total} (${plan.framework}, run ${run.id})${r.timedOut ? ` — killed after ${timeoutSeconds} s` : ''}`,
  ];
  for (const t of r.tests.filter((x) => x.status === 'failed'))
    lines.push(`  failed: ${t.name}${t.message ? `: ${t.message.split('\n')[0]}` : ''}`);
  for (const f of r.fileErrors) lines.push(`  could not load ${f.file}: ${f.message.split('\n')[0]}`);
  return { text: lines.join('\n'), structured, isError: r.failed > 0 || r.fileErrors.length > 0 || r.timedOut };
}

async function existingFiles(workspace: string, paths: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    const abs = await resolveInside(workspace, p); // refuses escapes with a clear error
    if ((await fsp.stat(abs).catch(() => undefined))?.isFile()) out.push(p);
  }
  return out;
}
