// The person's own test files, run from the Testing view: the project's test runner (the one its
// test command starts: lsp/workspaceTests.ts) with fixed arguments, the way runTests.ts runs AMTP's
// files, and the results by test name. The caller gates it like any test run (the person's click).
import { existsSync, promises as fsp } from 'node:fs';
import { runTests } from '../frameworks/runner';
import type * as P from '../protocol';
import { resolveInside, workspaceRelative } from '../util/safePath';
import { planRun } from '../verifier/runPlan';
import { MAX_OUTPUT, resultsByTest, runOptions, testsOf } from './runTests';
import { projectRunner } from './workspaceTests';

/** The files as workspace-relative paths of files on disk; throws for a path outside the workspace (before any approval is asked). */
export async function confinedFiles(workspace: string, paths: string[]): Promise<string[]> {
  const root = await fsp.realpath(workspace);
  const files: string[] = [];
  for (const f of paths) {
    const abs = await resolveInside(root, f);
    if (existsSync(abs)) files.push(workspaceRelative(root, abs));
  }
  if (!files.length) throw new Error('none of these test files is on disk');
  return files;
}

/** Runs `files` (confinedFiles) with the project's runner; only the tests `ownTests` names, when given. */
export async function runOwnTestFiles(
  workspace: string,
  runId: string,
  p: { files: string[]; ownTests?: P.OwnTest[]; timeoutSeconds: number; signal?: AbortSignal },
): Promise<P.RunTestsResult> {
  const files = p.files;
  const runner = await projectRunner(workspace, files);
  if ('cannot' in runner) throw new Error(runner.cannot);
  const plan = planRun(runner.framework, workspace, runner.command, files);
  if ('cannot' in plan) throw new Error(`your tests cannot run here: ${plan.cannot}`);
  const tests = new Map(files.map((f) => [f, testsOf(workspace, f)]));
  const own = p.ownTests?.filter((t) => tests.has(t.file));
  const r = await runTests(plan.framework, workspace, files, {
    ...runOptions(plan, p),
    ...(own?.length ? { grep: [...new Set(own.map((t) => t.name))] } : {}),
  });
  const { ownResults } = resultsByTest(r, tests, undefined);
  // A file that did not load fails every test it holds.
  for (const e of r.fileErrors)
    for (const t of tests.get(e.file) ?? [])
      if (!t.caseId) ownResults.push({ file: e.file, name: t.name, suites: t.suites, outcome: 'failing', message: e.message });
  return {
    runId,
    framework: plan.framework,
    exitCode: r.exitCode,
    timedOut: r.timedOut,
    results: [],
    ownResults,
    output: r.output.length > MAX_OUTPUT ? r.output.slice(-MAX_OUTPUT) : r.output,
  };
}
