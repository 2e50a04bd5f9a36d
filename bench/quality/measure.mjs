// One subject × framework: `amtp generate --provider offline --yes --json` (dist/cli.js: crawl →
// generate → engineer → verify with the real runner) on a fresh copy, then the bench's own checks
// of what was kept: the written files run 3 more times with the same runner binary, and each kept
// test's case is classed existence/arity-only or not from the plan the engineer got (the generator's,
// with characterization cases in place of the existence checks they replaced).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isWritten } from '../../server/src/core/run.ts';
import { caseOfResult, testsInFile } from '../../server/src/frameworks/caseMap.ts';
import { runTests } from '../../server/src/frameworks/runner.ts';
import { LowdbStore } from '../../server/src/store/lowdb.ts';
import { testPlan } from '../../server/src/pipeline/testPlan.ts';
import { planRun } from '../../server/src/verifier/runPlan.ts';
import { independent } from './independent.mjs';
import { REPO, makeWorkspace } from './prepare.mjs';

export const RERUNS = 3;
const GENERATE_TIMEOUT_MS = 30 * 60_000;
const TIME = '/usr/bin/time';

/** Oracles that only say an export is there (`typeof f === 'function'`, `f.length === 3`, `x !== undefined`). */
const SHAPE_ORACLES = new Set(['type', 'arity', 'exports']);
const isExistenceCheck = (c) => !c?.oracle || SHAPE_ORACLES.has(c.oracle.kind);

/**
 * `opts`: depth (undefined: the CLI's default), keep (leave the workspace), runners ('declared' | 'amtp'),
 * mutation (run Stryker on the kept tests).
 */
export async function measure(subject, framework, { depth, keep = false, runners = 'declared', mutation = true } = {}) {
  const started = performance.now();
  const ws = await makeWorkspace(subject, framework, runners);
  try {
    const args = [join(REPO, 'dist/cli.js'), 'generate', ws.dir, '--provider', 'offline', '--yes', '--json', '--framework', framework];
    if (depth) args.push('--depth', depth);
    // AMTP's own time, without the workspace's preparation; and its CPU seconds (user + system, its
    // children included) where /usr/bin/time is there: on a shared machine the wall time says as
    // much about the other processes as about AMTP.
    const timed = existsSync(TIME);
    const generateStarted = performance.now();
    const r = spawnSync(timed ? TIME : process.execPath, timed ? ['-f', 'AMTP_CPU %U %S', process.execPath, ...args] : args, {
      encoding: 'utf8',
      maxBuffer: 256 << 20,
      timeout: GENERATE_TIMEOUT_MS,
    });
    const amtpMs = ms(generateStarted);
    const cpu = /AMTP_CPU ([\d.]+) ([\d.]+)\s*$/.exec(r.stderr ?? '');
    const base = {
      subject: subject.name,
      framework,
      runner: ws.runner,
      modules: ws.modules,
      about50: !!subject.about50,
      kinds: subject.kinds,
      amtpMs,
      ...(cpu ? { amtpCpuS: Math.round(Number(cpu[1]) + Number(cpu[2])) } : {}),
    };
    let s;
    try {
      s = JSON.parse(r.stdout);
    } catch {
      const why = r.error ? `${r.error.code ?? r.error.message}` : `exit ${r.status}${r.signal ? ` (${r.signal})` : ''}`;
      return { ...base, status: 'crashed', problem: `amtp generate printed no JSON: ${why}; stderr: ${tail(r.stderr)}`, ms: ms(started) };
    }
    const row = { ...base, ...fromSummary(s), exit: r.status };
    if (s.runId) Object.assign(row, await fromStore(ws.dir, s.runId, row.keptIds));
    const ctx = row.context?.kept;
    delete row.context;
    if (ctx?.files.length && row.kept)
      Object.assign(row, await independent({ subject, framework, ws, ...ctx, keptIds: row.keptIds, runners, mutation }));
    return { ...row, ms: ms(started) };
  } finally {
    if (keep) process.stderr.write(`(kept ${ws.dir}) `);
    else ws.cleanup();
  }
}

/** The figures of a `--json` summary (server/src/pipeline/summary.ts RunSummary). */
function fromSummary(s) {
  const v = s.verification ?? { results: [], coverage: {}, filters: [] };
  const results = v.results ?? [];
  const kept = results.filter((x) => x.outcome === 'passing');
  const byId = new Map((s.cases ?? []).map((c) => [c.id, c]));
  return {
    runId: s.runId,
    status: s.status,
    verification: v.status,
    problem: problemOf(s),
    planned: s.cases?.length ?? 0,
    written: results.length,
    kept: kept.length,
    keptIds: kept.map((x) => x.caseId),
    quarantined: results.filter((x) => x.outcome === 'quarantined').length,
    // filled from the plan once the store is read (rerunKept); the summary's flag is the engine's own view
    existenceKeptEngine: kept.filter((x) => byId.get(x.caseId)?.existenceOnly).length,
    statements: v.coverage?.statements,
    beyond: v.coverage?.beyondImport,
    coverageTool: v.coverage?.tool,
    filters: (v.filters ?? []).map((f) => `${f.step}: kept ${f.kept}, dropped ${f.dropped}${f.skipped ? ` (skipped: ${f.skipped})` : ''}`),
    dropReasons: countReasons(results.filter((x) => x.outcome !== 'passing')),
    // AMTP's own mutation phase (issue 23), beside Stryker's independent score
    amtpMutation: v.mutation
      ? {
          status: v.mutation.status,
          reason: v.mutation.reason,
          score: v.mutation.score,
          counts: v.mutation.counts,
          seconds: v.mutation.seconds,
          notRun: (v.mutation.notRun ?? []).reduce((n, x) => n + x.mutants, 0),
        }
      : undefined,
  };
}

/** Why a run did not end with verified tests: the run's reason, the first agent error, or the verifier's reason. */
function problemOf(s) {
  const parts = [];
  if (s.error) parts.push(`error: ${typeof s.error === 'string' ? s.error : JSON.stringify(s.error)}`);
  if (s.reason) parts.push(`run: ${s.reason}`);
  for (const a of s.activities ?? []) for (const e of a.errors ?? []) parts.push(`${a.agent} (${a.status}): ${e.kind}: ${e.message}`);
  if (s.verification && s.verification.status !== 'done') parts.push(`verify ${s.verification.status}: ${s.verification.reason ?? ''}`);
  return parts.length ? parts.join(' | ').slice(0, 1500) : undefined;
}

function countReasons(results) {
  const counts = {};
  for (const r of results) {
    const key = `${r.outcome}: ${(r.reason ?? '').replace(/tc_[0-9a-f]{12}/g, 'tc_…').slice(0, 120)}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/** What the run left in .amtp/: the plan (existence class of kept cases), the cases not written and why, and a rerun. */
async function fromStore(dir, runId, keptIds) {
  const store = new LowdbStore(dir);
  const run = await store.getRun(runId);
  if (!run?.activities.some((a) => a.agent === 'engineer' && a.artifactId)) return { existenceKept: 0, stable: 0 };
  const engineer = await store.agentOutput(run, 'engineer');
  // The plan the engineer got: characterization cases (pinned observed values) in place of the existence
  // checks they replaced. The generator's plan lacks them, and an unknown id would count as existence-only.
  const cases = new Map((await testPlan(store, run)).cases.map((c) => [c.id, c]));
  const existenceKept = keptIds.filter((id) => isExistenceCheck(cases.get(id))).length;
  const notWritten = countReasons((engineer.not_written ?? []).map((n) => ({ outcome: 'not written', reason: n.reason })));
  const files = engineer.files.filter((f) => isWritten(run.files.find((r) => r.path === f.path)?.action) && existsSync(join(dir, f.path)));
  const plan = planRun(
    engineer.framework,
    dir,
    engineer.command,
    files.map((f) => f.path),
  );
  // what independent.mjs needs to measure the kept files on its own
  // (test files only: the engineer also writes runner support files, e.g. a jest config that plan.args names)
  const tests = files.filter((f) => f.caseIds?.length).map((f) => f.path);
  const context = 'cannot' in plan ? {} : { kept: { files: tests, plan, cases } };
  return { existenceKept, notWritten, context, ...(keptIds.length ? await rerun(dir, run, engineer, keptIds) : { stable: 0 }) };
}

/**
 * The written files run RERUNS times with the runner the project has (planRun: the binary in
 * node_modules, or python3 -m pytest), outside AMTP's verifier. A kept case counts when every test
 * named with its id passed in every run; a file that fails to load fails all its cases.
 */
async function rerun(dir, run, engineer, keptIds) {
  const files = engineer.files.filter((f) => isWritten(run.files.find((r) => r.path === f.path)?.action) && existsSync(join(dir, f.path)));
  const runPlan = planRun(
    engineer.framework,
    dir,
    engineer.command,
    files.map((f) => f.path),
  );
  if ('cannot' in runPlan) return { stable: 0, rerunProblem: runPlan.cannot };
  const passes = new Map(keptIds.map((id) => [id, 0]));
  // each written file's tests, read once: a runner names a test by its title, its case id is in the file
  const testsOf = new Map(files.map((f) => [f.path, testsInFile(f.path, readFileSync(join(dir, f.path), 'utf8'))]));
  let rerunProblem;
  for (let i = 0; i < RERUNS; i++) {
    const r = await runTests(
      runPlan.framework,
      dir,
      files.map((f) => f.path),
      {
        binDir: runPlan.binDir,
        args: runPlan.args,
        env: runPlan.env,
        python: runPlan.python,
        timeoutMs: 300_000,
      },
    );
    const failed = new Set();
    const passed = new Set();
    for (const t of r.tests) {
      const id = caseOfTest(testsOf, t);
      if (id) (t.status === 'passed' ? passed : failed).add(id);
    }
    for (const e of r.fileErrors) for (const id of files.find((f) => f.path === e.file)?.caseIds ?? []) failed.add(id);
    for (const id of keptIds) if (passed.has(id) && !failed.has(id)) passes.set(id, passes.get(id) + 1);
    if (r.timedOut) rerunProblem = `run ${i + 1} timed out`;
    else if (!r.tests.length) rerunProblem ??= `run ${i + 1} reported no tests (exit ${r.exitCode}): ${tail(r.output)}`;
  }
  const stable = [...passes.values()].filter((n) => n === RERUNS).length;
  return { stable, ...(rerunProblem ? { rerunProblem } : {}) };
}

/** The case of a test a runner reported (frameworks/caseMap.ts): in the file it names, else in any written file. */
function caseOfTest(testsOf, t) {
  const files = t.file && testsOf.has(t.file) ? [t.file] : [...testsOf.keys()];
  for (const f of files) {
    const id = caseOfResult(testsOf.get(f), t.name, f.endsWith('.py'));
    if (id) return id;
  }
  return undefined;
}

const ms = (started) => Math.round(performance.now() - started);
const tail = (text) => (text ?? '').trim().split('\n').slice(-6).join(' ⏎ ').slice(-800);
