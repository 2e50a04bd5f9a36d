// Running tests of the workspace's own test files (no run wrote them): the server runs them with the
// project's runner, through the same gate as AMTP's tests (amtp/runTests with `files`): the newest
// run that wrote tests records the approval and audit. Results come back by test name.
import * as vscode from 'vscode';
import type * as P from '../../server/src/protocol';
import { ownFilesRequest, ownTestId } from './model/testItems';
import type { CaseOutcome, RunsModel } from './model/runsModel';
import type { TestRunner, TestRunSummary } from './testing';

const WRITTEN: ReadonlySet<P.CaseStatus> = new Set(['written', 'passing', 'failing']);

export async function runOwnTestFiles(
  runner: TestRunner,
  model: RunsModel,
  log: (line: string) => void,
  p: { tests: P.OwnTest[]; whole: boolean; token?: vscode.CancellationToken; onOutput?: (text: string) => void },
): Promise<Pick<TestRunSummary, 'results' | 'messages'>> {
  if (!vscode.workspace.isTrusted) throw new Error('Running tests executes workspace code: trust this workspace first.');
  const runId = model.list().find((r) => r.cases.some((c) => WRITTEN.has(c.status)))?.runId;
  const params = ownFilesRequest(p.tests, p.whole);
  log(`running ${params.files?.length} of your own test file(s) with the project's runner`);
  const sub = runId ? p.token?.onCancellationRequested(() => void runner.cancel(runId)) : undefined;
  let r: P.RunTestsResult;
  try {
    r = await runner.run({ ...(runId ? { runId } : {}), ...params });
  } finally {
    sub?.dispose();
  }
  p.onOutput?.(r.output);
  const results = new Map<string, CaseOutcome>();
  const messages = new Map<string, string>();
  for (const t of r.ownResults ?? []) {
    if (t.outcome === 'skipped') continue;
    results.set(ownTestId(t.file, t), t.outcome);
    if (t.message) messages.set(ownTestId(t.file, t), t.message);
  }
  log(`${r.framework} exited ${r.exitCode}${r.timedOut ? ' (timed out)' : ''} on your own test file(s): ${results.size} result(s)`);
  return { results, messages };
}
