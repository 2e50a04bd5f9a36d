// The Python engine (docs/mutation.md): `ast` operators placed as mutant schemata
// (amtp_mutate.py), run by pytest with AMTP's plugin (amtp_mutation_plugin.py), which imports the
// modules under test instrumented, in place: nothing in the workspace is copied or changed.
// - the coverage round runs the tests as pytest does and records which mutants each test reaches;
// - each mutant batch is ONE pytest process whose loop switches its mutants one after another and
//   re-runs only the tests that reach each; results are written after every mutant, so a process
//   killed at its time limit loses nothing it finished;
// - static mutants (reached while modules import) one process each, switched on by AMTP_ACTIVE_MUTANT.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, dirname, join } from 'node:path';
import { testsInFile } from '../../frameworks/caseMap';
import { CancelledError } from '../../core/errors';
import { runTests as realRunTests, type RunResult } from '../../frameworks/runner';
import { mutationAssetPath } from '../assets';
import { mutantResults } from '../outcome';
import { planMutants, readCoverage, widenStatics, type CoverageRound, type PlannedMutant } from '../rounds';
import { schedule, type BatchRun, type TestOutcome } from '../schedule';
import { stallLimit, watchStalls } from '../stall';
import { mutantKey, type MutationOutcome, type MutationRequest } from '../types';
import { instrumentPython } from './instrument';

const PYTHON_TOOL = 'AMTP ast operators (mutant schemata), run by pytest';

interface PyRun {
  req: MutationRequest;
  dir: string;
  targets: Record<string, number>;
  files: string[];
  executions: number;
}

export async function mutatePython(req: MutationRequest): Promise<MutationOutcome> {
  const started = Date.now();
  const python = req.plan.python ?? 'python3';
  const sources = new Map<string, string>();
  for (const t of req.targets)
    if (t.endsWith('.py') && existsSync(join(req.workspace, t))) sources.set(t, readFileSync(join(req.workspace, t), 'utf8'));
  const ins = await instrumentPython(python, sources, req.signal);
  const outcome: MutationOutcome = {
    tool: PYTHON_TOOL,
    mutants: [],
    files: [...ins.files.keys()],
    failedFiles: ins.failed,
    excludedTests: [],
    executions: 0,
    elapsedMs: 0,
    budgetMs: req.budgetMs,
  };
  const dir = mkdtempSync(join(tmpdir(), 'amtp-pymutation-'));
  try {
    const targets = Object.fromEntries([...ins.firstIds].map(([rel, first]) => [join(req.workspace, rel), first]));
    const run: PyRun = { req, dir, targets, files: [...new Set(req.tests.map((t) => t.file))].sort(), executions: 0 };
    const cov = await coverageRound(run, outcome);
    const wanted = ins.mutants.filter((m) => !req.only || req.only.has(mutantKey(m)));
    const { planned, noCoverage } = planMutants(
      wanted.filter((m) => !m.filtered).map((m) => m.id),
      cov,
    );
    widenStatics(planned, cov);
    const sched = await schedule(backend(run), planned, {
      deadline: started + req.budgetMs,
      startupMs: Math.max(300, cov.wallMs - [...cov.ms.values()].reduce((a, b) => a + b, 0)),
      perTestMs: 3,
      invocationTimeoutMs: req.timeoutMs,
      info: req.info,
    });
    outcome.mutants = mutantResults(wanted, planned, noCoverage, sched);
    outcome.executions = run.executions;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  outcome.elapsedMs = Date.now() - started;
  return outcome;
}

async function coverageRound(run: PyRun, outcome: MutationOutcome): Promise<CoverageRound> {
  const t0 = Date.now();
  const { json, result } = await invoke(run, { mode: 'coverage', rounds: [] }, {}, run.req.timeoutMs);
  const wallMs = Date.now() - t0;
  const data = json as {
    perTest?: Record<string, Record<string, number>>;
    static?: Record<string, number>;
    ms?: Record<string, number>;
    failed?: string[];
  };
  const cov = readCoverage(data);
  const failed = new Set(data.failed ?? []);
  const ran = new Set(Object.keys(data.ms ?? {}));
  const usable = new Set<string>();
  for (const t of run.req.tests) {
    if (ran.has(t.caseId) && !failed.has(t.caseId)) usable.add(t.caseId);
    else
      outcome.excludedTests.push({
        caseId: t.caseId,
        reason: ran.has(t.caseId)
          ? 'it failed with the instrumented modules'
          : `pytest did not run it (${result.fileErrors[0]?.message.split('\n')[0] ?? 'not collected'})`,
      });
  }
  return { ...cov, usable, wallMs };
}

function backend(run: PyRun) {
  const round = (m: PlannedMutant) => ({ mutant: m.id, tests: m.tests, hitLimit: m.hitLimit, timeoutMs: m.timeoutMs });
  const batch = async (mutants: PlannedMutant[], env: Record<string, string>, timeoutMs: number): Promise<BatchRun> => {
    const t0 = Date.now();
    const progress = join(run.dir, `out-${run.executions + 1}.json.progress`);
    const read = () => (existsSync(progress) ? [readFileSync(progress, 'utf8')] : []);
    const watch = watchStalls(read, stallLimit(mutants), run.req.signal);
    try {
      const { json, result } = await invoke(run, { mode: 'mutants', rounds: mutants.map(round) }, env, timeoutMs, watch.signal);
      const rows = ((json as { results?: [string, string, string][] }).results ?? []).map(([mutant, test, outcome]) => ({
        mutant,
        test,
        outcome: outcome as TestOutcome,
      }));
      const hung = watch.stalled().length
        ? watch.stalled()
        : result.timedOut
          ? read()
              .map((p) => p.split('\n')[0])
              .filter(Boolean)
          : [];
      return { results: rows, timedOut: result.timedOut || hung.length > 0, hung, elapsedMs: Date.now() - t0 };
    } finally {
      watch.stop();
    }
  };
  return {
    runBatch: (mutants: PlannedMutant[], timeoutMs: number) => batch(mutants, {}, timeoutMs),
    runStatic: (m: PlannedMutant, timeoutMs: number) => batch([m], { AMTP_ACTIVE_MUTANT: m.id }, timeoutMs),
  };
}

/** `<file name>::[<Class>::]<function>` → case id for the plugin, from the files' comments (frameworks/caseMap.ts). */
function caseIdsOf(run: PyRun): Record<string, string> {
  const out: Record<string, string> = {};
  for (const file of run.files) {
    let text: string;
    try {
      text = readFileSync(join(run.req.workspace, file), 'utf8');
    } catch {
      continue;
    }
    for (const t of testsInFile(file, text)) if (t.caseId) out[[basename(file), ...t.suites.slice(-1), t.name].join('::')] = t.caseId;
  }
  return out;
}

/** One pytest process with the plugin and this plan; the plugin's answer (what it wrote), and the runner's result. */
async function invoke(
  run: PyRun,
  plan: { mode: string; rounds: unknown[] },
  env: Record<string, string>,
  timeoutMs: number,
  signal = run.req.signal,
): Promise<{ json: unknown; result: RunResult }> {
  const { req, dir } = run;
  const n = ++run.executions;
  const planFile = join(dir, `plan-${n}.json`);
  const out = join(dir, `out-${n}.json`);
  writeFileSync(planFile, JSON.stringify({ ...plan, targets: run.targets, out, ids: caseIdsOf(run) }));
  const pythonPath = [dirname(mutationAssetPath('amtp_mutation_plugin.py')), req.plan.env.PYTHONPATH ?? process.env.PYTHONPATH]
    .filter((p): p is string => !!p)
    .join(delimiter);
  const result = await (req.runTests ?? realRunTests)('pytest', req.workspace, run.files, {
    binDir: req.plan.binDir,
    args: [...req.plan.args, '-p', 'amtp_mutation_plugin'],
    env: { ...req.plan.env, ...env, PYTHONPATH: pythonPath, AMTP_MUTATION_PLAN: planFile },
    python: req.plan.python,
    timeoutMs,
    signal,
    onSpawn: req.onSpawn,
  });
  if (result.cancelled && (req.signal?.aborted || signal === req.signal)) throw new CancelledError();
  return { json: existsSync(out) ? (JSON.parse(readFileSync(out, 'utf8')) as unknown) : {}, result };
}
