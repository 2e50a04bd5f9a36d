// "Run Generated Tests" and the Testing view's run profile: the run's written test files run with
// the project's own runner binary and fixed arguments (verifier/runPlan.ts), never a command
// string through a shell, and results come from the runner's structured report.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { relOf, type IstanbulMap } from '../coverage/units';
import { isWritten, type RunRecord } from '../core/run';
import { namesOfCases, testOfResult, testsInFile, type FileTest } from '../frameworks/caseMap';
import { runTests } from '../frameworks/runner';
import type { RunStore } from '../store/types';
import type * as P from '../protocol';
import { planRun, type RunPlan } from '../verifier/runPlan';

export const MAX_OUTPUT = 64 * 1024;

/** How a Testing view run starts its runner: the plan's command line and environment, bounded in time. */
export function runOptions(plan: RunPlan, p: { timeoutSeconds: number; signal?: AbortSignal }) {
  return { binDir: plan.binDir, args: plan.args, env: plan.env, python: plan.python, timeoutMs: p.timeoutSeconds * 1000, signal: p.signal };
}

export async function runWrittenTests(
  store: RunStore,
  workspace: string,
  run: RunRecord,
  p: { caseIds?: string[]; ownTests?: P.OwnTest[]; coverage?: boolean; timeoutSeconds: number; signal?: AbortSignal },
): Promise<P.RunTestsResult> {
  const engineer = await store.agentOutput(run, 'engineer');
  const wanted = p.caseIds?.length ? new Set(p.caseIds) : undefined;
  const files = engineer.files.filter(
    (f) =>
      isWritten(run.files.find((r) => r.path === f.path)?.action) &&
      existsSync(join(workspace, f.path)) &&
      (!wanted || f.caseIds.some((id) => wanted.has(id))),
  );
  if (!files.length) throw new Error(`run ${run.id} has no written test file${wanted ? ' for these cases' : ''} on disk`);
  const paths = files.map((f) => f.path);
  const tests = new Map(paths.map((f) => [f, testsOf(workspace, f)]));
  const own = p.ownTests?.length ? p.ownTests : undefined;
  const names = [...(wanted ? [...tests.values()].flatMap((t) => namesOfCases(t, wanted)) : []), ...(own ?? []).map((t) => t.name)];
  const plan = planRun(engineer.framework, workspace, engineer.command, paths);
  if ('cannot' in plan) throw new Error(`the tests cannot run here: ${plan.cannot}`);
  // Coverage of the files the run's cases target (nothing needs to be installed: server/src/coverage).
  const targets = p.coverage
    ? [...new Set((await store.agentOutput(run, 'generator')).cases.map((c) => c.target.file))].filter((f) =>
        existsSync(join(workspace, f)),
      )
    : [];
  const r = await runTests(plan.framework, workspace, paths, {
    ...runOptions(plan, p),
    ...(wanted || own ? { grep: [...new Set(names)] } : {}),
    ...(targets.length ? { coverageOf: targets } : {}),
  });
  const { results, ownResults } = resultsByTest(r, tests, wanted);
  // A file that did not load fails every case it holds.
  for (const e of r.fileErrors) {
    for (const id of files.find((f) => f.path === e.file)?.caseIds ?? []) {
      if (!wanted || wanted.has(id)) results.set(id, { caseId: id, outcome: 'failing', message: e.message });
    }
  }
  return {
    runId: run.id,
    framework: plan.framework,
    exitCode: r.exitCode,
    timedOut: r.timedOut,
    results: [...results.values()].sort((a, b) => a.caseId.localeCompare(b.caseId)),
    ownResults,
    output: r.output.length > MAX_OUTPUT ? r.output.slice(-MAX_OUTPUT) : r.output,
    ...(p.coverage ? { coverage: r.map ? fileCoverage(r.map, workspace) : [] } : {}),
  };
}

/** The runner's results by case (frameworks/caseMap.ts), and those of the person's own tests apart. */
export function resultsByTest(
  r: Awaited<ReturnType<typeof runTests>>,
  tests: Map<string, FileTest[]>,
  wanted: Set<string> | undefined,
): { results: Map<string, P.TestCaseResult>; ownResults: P.OwnTestResult[] } {
  const results = new Map<string, P.TestCaseResult>();
  const ownResults: P.OwnTestResult[] = [];
  for (const t of r.tests) {
    const found = findTest(tests, t.name, t.file);
    if (!found) continue;
    const outcome = t.status === 'passed' ? 'passing' : t.status === 'failed' ? 'failing' : 'skipped';
    const caseId = found.test.caseId;
    if (!caseId) {
      ownResults.push({
        file: found.file,
        name: found.test.name,
        suites: found.test.suites,
        outcome,
        ...(t.message ? { message: t.message } : {}),
      });
      continue;
    }
    if (wanted && !wanted.has(caseId)) continue;
    // A failure anywhere (the same case in two files) wins over a pass.
    if (results.get(caseId)?.outcome !== 'failing') results.set(caseId, { caseId, outcome, ...(t.message ? { message: t.message } : {}) });
  }
  return { results, ownResults };
}

export function testsOf(workspace: string, file: string): FileTest[] {
  try {
    return testsInFile(file, readFileSync(join(workspace, file), 'utf8'));
  } catch {
    return [];
  }
}

/** The test a result names: in the file the runner says, else in whichever of the run's files has it. */
function findTest(tests: Map<string, FileTest[]>, name: string, file: string | undefined): { file: string; test: FileTest } | undefined {
  const order = file && tests.has(file) ? [file] : [...tests.keys()];
  for (const f of order) {
    const test = testOfResult(tests.get(f) ?? [], name, f.endsWith('.py'));
    if (test) return { file: f, test };
  }
  return undefined;
}

/** An istanbul map as the Testing view wants it: per file, statements with counts and branch arms. */
function fileCoverage(map: IstanbulMap, workspace: string): P.FileCoverageView[] {
  return Object.entries(map)
    .map(([file, d]) => ({
      path: relOf(workspace, d.path ?? file),
      statements: Object.entries(d.s).map(([id, count]) => ({
        line: d.statementMap[id].start.line - 1,
        character: d.statementMap[id].start.column ?? 0,
        count,
      })),
      branches: Object.entries(d.b).flatMap(([id, counts]) =>
        counts.map((n, i) => {
          const at = d.branchMap[id]?.locations[i]?.start;
          return { line: (at?.line ?? 1) - 1, character: at?.column ?? 0, covered: n > 0 };
        }),
      ),
    }))
    .sort((a, b) => a.path.localeCompare(b.path));
}
