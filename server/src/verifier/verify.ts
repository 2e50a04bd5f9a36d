// The verifier's work once the test run is approved: run every written test file N times, keep
// only assured tests (loads → passes every run → adds coverage), repair or quarantine failures,
// rewrite the files to match, and measure coverage before/after. See docs/verifier.md.
import type { EngineerOutput, TestCase, TestCases } from '../contracts/types';
import type { CoverageUnits, RunResult } from '../frameworks/runner';
import type { Gateway } from '../gateway/gateway';
import { AmtpError, CancelledError, SchemaValidationError, errorMessage } from '../core/errors';
import { MalformedLlmOutput } from '../llm/errors';
import type { LlmProvider } from '../llm/provider';
import { crashPoint } from '../core/faults';
import type { RunStore } from '../pipeline/store';
import type { RunRecord } from '../core/run';
import { classifyFailure, firstLine } from './classify';
import { beyondImportCandidates, finalCoverage, loadOnlyUnits, percent, redundant, union, type Candidate } from './coverage';
import { CaseRunner, type Observation } from './execute';
import { putFile, type WriteLog } from './files';
import { requestRepair } from './repair';
import type { RunPlan } from './runPlan';
import { findTests, keepOnlyTests, quarantinePath, removeTests, replaceTest, skipTests, testSource } from './testFile';
import type { CaseResult, FilterStep, VerificationRecord, VerifyParams } from '../core/run';

export interface VerifyContext {
  workspace: string;
  run: () => RunRecord;
  store: RunStore;
  provider: LlmProvider;
  gateway: Gateway;
  plan: RunPlan;
  params: VerifyParams;
  engineer: EngineerOutput;
  engineerArtifactId: string;
  cases: TestCases;
  /** the engineer's test files that were written, in path order */
  files: EngineerOutput['files'];
  log: WriteLog;
  signal?: AbortSignal;
  update: (mut: (v: VerificationRecord) => void) => Promise<void>;
  info: (message: string) => void;
}

interface Working {
  path: string;
  content: string;
  ids: string[];
}

export async function verifyFiles(ctx: VerifyContext): Promise<void> {
  const { params } = ctx;
  const pids: number[] = [];
  const runner = new CaseRunner(ctx.plan, ctx.workspace, params.timeoutSeconds * 1000, ctx.signal, (pid) => pids.push(pid));
  const flushPids = () => ctx.update((v) => { v.pids.push(...pids.splice(0)); v.executions = runner.executions; });
  const caseOf = new Map<string, TestCase>(ctx.cases.cases.map((c) => [c.id, c]));
  const results = new Map<string, CaseResult>();
  const names = new Map<string, string>();
  const nameOf = (id: string) => names.get(id) ?? id;
  const drop = (id: string, step: CaseResult['step'], reason: string, outcome: CaseResult['outcome'] = 'dropped') => results.set(id, { caseId: id, outcome, step, reason, test: nameOf(id) });

  const work: Working[] = ctx.files.map((f) => {
    const ids = [...new Set(findTests(f.path, f.content).map((b) => b.caseId))];
    for (const id of f.caseIds) if (!ids.includes(id)) drop(id, 'loads', `no test in ${f.path} carries the case id ${id}`);
    return { path: f.path, content: f.content, ids };
  });
  const written = work.reduce((n, w) => n + w.ids.length, 0) + results.size;

  // (1) loads and (2) passes every run.
  const failing = new Map<string, { w: Working; message: string }>();
  const stable: { id: string; w: Working }[] = [];
  for (const w of work) {
    let pending = [...w.ids];
    const seen = new Map<string, Observation[]>();
    for (let r = 1; r <= params.runs && pending.length; r++) {
      const { obs } = await runner.run(w.path, pending);
      await flushPids();
      if ([...obs.values()].some((o) => o.status === 'timeout')) {
        ctx.info(`verify: ${w.path} timed out; running its tests one by one to find the ones that hang`);
        const hung = await findHanging(runner, w.path, pending);
        await flushPids();
        for (const id of hung) drop(id, 'passes_every_run', `hangs: killed after ${params.timeoutSeconds} s with its whole process group`);
        if (!hung.length) for (const id of pending) drop(id, 'passes_every_run', `the file times out (${params.timeoutSeconds} s) when its tests run together`);
        pending = pending.filter((id) => !results.has(id));
        if (hung.length) {
          w.content = removeTests(w.path, w.content, hung);
          await putFile(ctx.gateway, ctx.workspace, ctx.log, ctx.run().id, w.path, w.content, `removes ${hung.length} hanging test(s) before re-running`);
        }
        seen.clear();
        r = 0; // start the N runs again without the hanging tests
        continue;
      }
      for (const id of pending) {
        const o = obs.get(id)!;
        if (o.name) names.set(id, o.name);
        seen.set(id, [...(seen.get(id) ?? []), o]);
      }
      if (r === 1) {
        for (const id of pending) {
          const o = obs.get(id)!;
          if (o.status === 'load_error') drop(id, 'loads', `does not load: ${firstLine(o.message ?? '')}`);
          if (o.status === 'missing') drop(id, 'loads', o.message ?? 'never ran');
        }
        pending = pending.filter((id) => !results.has(id));
      }
    }
    for (const id of pending) {
      const list = seen.get(id) ?? [];
      const passed = list.filter((o) => o.status === 'passed').length;
      if (passed === list.length) stable.push({ id, w });
      else if (list.every((o) => o.status === 'skipped')) drop(id, 'passes_every_run', 'the test skips itself: nothing is asserted');
      else if (list.every((o) => o.status === 'failed')) failing.set(id, { w, message: list.at(-1)!.message ?? 'failed' });
      else {
        const bad = list.findIndex((o) => o.status !== 'passed');
        drop(id, 'passes_every_run', `flaky: passed ${passed} of ${list.length} runs (run ${bad + 1}: ${list[bad].status}${list[bad].message ? `: ${firstLine(list[bad].message!)}` : ''})`, 'flaky');
      }
    }
  }
  crashPoint('verify:ran');
  ctx.info(`verify: ${stable.length} stable, ${failing.size} failing, ${results.size} dropped after ${params.runs} run(s)`);

  // Failures: possible bug → quarantine; test is wrong → bounded repair (LLM) or quarantine (offline).
  const quarantined = new Map<string, string>();
  for (const [id, { w, message }] of failing) {
    const tc = caseOf.get(id);
    const cls = classifyFailure(tc, testSource(w.path, w.content, id), message);
    if (cls.kind === 'possible_bug') {
      quarantined.set(id, cls.reason);
      continue;
    }
    if (ctx.provider.name === 'offline' || params.repairAttempts <= 0) {
      quarantined.set(id, `${ctx.provider.name === 'offline' ? 'offline tests are evidence-only and the offline provider has no repair engine, so this is a renderer defect or a possible bug' : 'repairs are off'} — ${cls.reason}`);
      continue;
    }
    const repaired = await repairLoop(ctx, runner, flushPids, w, id, tc, message);
    if (repaired.kind === 'fixed') stable.push({ id, w });
    if (repaired.kind === 'fixed') results.set(id, { caseId: id, outcome: 'passing', reason: repaired.reason, test: nameOf(id), repairs: repaired.attempts });
    else if (repaired.kind === 'code_bug') quarantined.set(id, repaired.reason);
    else drop(id, 'passes_every_run', repaired.reason);
    if (repaired.kind !== 'fixed') results.get(id) && (results.get(id)!.repairs = repaired.attempts);
  }
  for (const [id, reason] of quarantined) results.set(id, { caseId: id, outcome: 'quarantined', step: 'passes_every_run', reason, test: nameOf(id) });

  // (3) adds coverage.
  const coverage: NonNullable<VerificationRecord['coverage']> = {};
  // One denominator for before and after: every unit any coverage run reported for the files under test.
  const universeKeys: CoverageUnits = new Set();
  let beforeUnits: CoverageUnits | undefined;
  let loaded: CoverageUnits | undefined;
  const targets = [...new Set(stable.map((s) => caseOf.get(s.id)?.target.file).filter((f): f is string => !!f))];
  let coverageStep: FilterStep;
  if (ctx.plan.noCoverage || !targets.length) {
    coverage.skipped = ctx.plan.noCoverage ?? 'no file under test is known';
    coverageStep = { step: 'adds_coverage', kept: stable.length, dropped: 0, names: [], skipped: coverage.skipped };
  } else {
    coverage.tool = ctx.plan.framework === 'pytest' ? 'coverage.py' : 'node (v8)';
    const perCase = stable.length <= params.maxCoverageRuns;
    const candidates: Candidate[] = [];
    if (perCase) {
      for (const [order, s] of stable.entries()) {
        const { obs, result } = await runner.run(s.w.path, [s.id], { grep: s.id, coverageOf: targets });
        for (const k of result.unitKeys ?? []) universeKeys.add(k);
        // A test that does not pass alone depends on the others: it is kept, unmeasured (no units → it is never anyone's cover).
        if (obs.get(s.id)?.status === 'passed' && result.units) candidates.push({ id: s.id, priority: caseOf.get(s.id)?.priority ?? 'P2', order, units: result.units });
      }
    } else {
      for (const [order, w] of work.entries()) {
        const ids = stable.filter((s) => s.w === w).map((s) => s.id);
        if (!ids.length) continue;
        const { result } = await runner.run(w.path, ids, { coverageOf: targets });
        for (const k of result.unitKeys ?? []) universeKeys.add(k);
        const best = ids.map((id) => caseOf.get(id)?.priority ?? 'P2').sort()[0];
        if (result.units) candidates.push({ id: w.path, priority: best, order, units: result.units });
      }
    }
    // "before": every stable test together, as the suite would have been without this filter.
    const together = new Map<string, CoverageUnits>();
    for (const w of work) {
      const ids = stable.filter((s) => s.w === w).map((s) => s.id);
      if (!ids.length) continue;
      const { result } = await runner.run(w.path, ids, { coverageOf: targets });
      if (result.units) together.set(w.path, result.units);
      for (const k of result.unitKeys ?? []) universeKeys.add(k);
    }
    await flushPids();
    beforeUnits = union(together.values());
    loaded = await loadOnlyUnits((f, ids, o) => runner.run(f, ids, o), work.filter((w) => stable.some((s) => s.w === w)).map((w) => w.path), targets);
    const gone = redundant(beyondImportCandidates(candidates, loaded));
    // Tests measured alone miss what only shows when they share a process (module state, caches):
    // the kept tests of each file run together once more, and if they cover less than all of its
    // stable tests did, the file keeps every test this filter would have dropped.
    let restored = 0;
    if (perCase) {
      for (const w of work) {
        const before = together.get(w.path);
        const dropping = stable.filter((s) => s.w === w && gone.has(s.id)).map((s) => s.id);
        if (!before || !dropping.length) continue;
        const keep = stable.filter((s) => s.w === w && !gone.has(s.id)).map((s) => s.id);
        const { result } = await runner.run(w.path, keep, { grep: keep, coverageOf: targets });
        const lost = [...before].filter((u) => !result.units?.has(u));
        if (lost.length) {
          ctx.info(`verify: ${w.path}: its tests cover ${lost.length} more unit(s) together than alone; keeping the ${dropping.length} test(s) the coverage filter would drop`);
          for (const id of dropping) gone.delete(id);
          restored += dropping.length;
        }
      }
      await flushPids();
    }
    const dropIds: string[] = [];
    for (const [key, reason] of gone) {
      const ids = perCase ? [key] : stable.filter((s) => s.w.path === key).map((s) => s.id);
      for (const id of ids) {
        drop(id, 'adds_coverage', perCase ? reason : `its file ${key} ${reason}`);
        dropIds.push(id);
      }
    }
    coverageStep = { step: 'adds_coverage', kept: stable.length - dropIds.length, dropped: dropIds.length, names: dropIds.map(nameOf) };
    if (!perCase) coverageStep.skipped = `more than ${params.maxCoverageRuns} tests: contribution measured per file`;
    if (restored) coverageStep.skipped = `${restored} test(s) kept: their file covers more with them than without (shared state)`;
  }
  for (const s of stable) if (!results.has(s.id)) results.set(s.id, { caseId: s.id, outcome: 'passing', test: nameOf(s.id) });

  // Rewrite the files: only assured tests stay; quarantined ones move to a skipped quarantine file.
  const quarantineFiles: string[] = [];
  for (const w of work) {
    const off = w.ids.filter((id) => results.get(id)?.outcome !== 'passing');
    const q = w.ids.filter((id) => results.get(id)?.outcome === 'quarantined');
    const main = removeTests(w.path, w.content, off);
    const empty = findTests(w.path, main).length === 0;
    const r1 = await putFile(ctx.gateway, ctx.workspace, ctx.log, ctx.run().id, w.path, empty ? null : main, `keeps ${w.ids.length - off.length} assured test(s) of ${w.ids.length}`);
    if (!r1.done) for (const id of off) leftInPlace(results.get(id)!, r1.decision);
    for (const id of w.ids) locate(results.get(id)!, w.path, empty ? undefined : main);
    if (q.length) {
      const qPath = quarantinePath(w.path);
      const reasons = new Map(q.map((id) => [id, results.get(id)!.reason!]));
      const qContent = quarantineHeader(w.path) + skipTests(qPath, keepOnlyTests(w.path, w.content, q), reasons);
      const r2 = await putFile(ctx.gateway, ctx.workspace, ctx.log, ctx.run().id, qPath, qContent, `${q.length} skipped test(s) that may reveal bugs`);
      if (r2.done) {
        quarantineFiles.push(qPath);
        for (const id of q) locate(results.get(id)!, qPath, qContent);
      }
    }
    if (!empty) w.content = main;
    else w.ids = [];
  }

  // Confirmation: the suite as it is now on disk, once, with coverage (the "after" figure).
  const afterUnits: CoverageUnits[] = [];
  const afterRuns: RunResult[] = [];
  for (const w of work) {
    const kept = w.ids.filter((id) => results.get(id)?.outcome === 'passing');
    if (!kept.length) continue;
    const { obs, result } = await runner.run(w.path, kept, coverage.tool ? { coverageOf: targets } : {});
    if (result.units) afterUnits.push(result.units);
    afterRuns.push(result);
    for (const k of result.unitKeys ?? []) universeKeys.add(k);
    for (const id of kept) {
      const o = obs.get(id);
      if (o?.status !== 'passed') Object.assign(results.get(id)!, { outcome: 'failing', reason: `passed ${params.runs} runs but not the final run of the rewritten file: ${o?.status}${o?.message ? `: ${firstLine(o.message)}` : ''}` });
    }
  }
  await flushPids();
  if (coverage.tool) {
    if (beforeUnits) coverage.before = percent(beforeUnits.size, universeKeys.size);
    coverage.after = percent(union(afterUnits).size, universeKeys.size);
    Object.assign(coverage, finalCoverage(afterRuns, union(afterUnits), loaded, universeKeys));
  }

  const byStep = (step: CaseResult['step'], outcome?: CaseResult['outcome']) => [...results.values()].filter((r) => r.step === step && (!outcome || r.outcome === outcome));
  const loads = byStep('loads');
  const unstable = byStep('passes_every_run').filter((r) => r.outcome !== 'quarantined');
  const quarantinedList = byStep('passes_every_run', 'quarantined');
  const loadsKept = written - loads.length;
  const filters: FilterStep[] = [
    { step: 'loads', kept: loadsKept, dropped: loads.length, names: loads.map((r) => r.test ?? r.caseId) },
    { step: 'passes_every_run', kept: loadsKept - unstable.length - quarantinedList.length, dropped: unstable.length, quarantined: quarantinedList.length, names: [...unstable, ...quarantinedList].map((r) => r.test ?? r.caseId) },
    coverageStep,
  ];
  const order = new Map(ctx.cases.cases.map((c, i) => [c.id, i]));
  await ctx.update((v) => {
    v.filters = filters;
    v.results = [...results.values()].sort((a, b) => (order.get(a.caseId) ?? 1e9) - (order.get(b.caseId) ?? 1e9));
    v.coverage = coverage;
    v.quarantineFiles = quarantineFiles;
    v.executions = runner.executions;
  });
}

function leftInPlace(r: CaseResult, decision: string | undefined): void {
  r.reason = `${r.reason ?? r.outcome}; still in the file: its rewrite was ${decision ?? 'refused'}`;
  if (r.outcome !== 'quarantined') r.outcome = 'failing';
}

function locate(r: CaseResult, file: string, content: string | undefined): void {
  if (!content) return;
  const at = findTests(file, content).find((b) => b.caseId === r.caseId);
  if (!at) return;
  r.file = file;
  r.line = content.slice(0, at.start).split('\n').length - 1;
}

function quarantineHeader(from: string): string {
  const c = from.endsWith('.py') ? '#' : '//';
  return `${c} AMTP quarantine for ${from}: these tests fail against the code as it is and may reveal bugs.\n${c} They are skipped so the suite stays green; each one says what was documented and what was observed.\n`;
}

async function findHanging(runner: CaseRunner, file: string, ids: string[]): Promise<string[]> {
  const hung: string[] = [];
  for (const id of ids) {
    const { obs } = await runner.run(file, [id], { grep: id });
    if (obs.get(id)?.status === 'timeout') hung.push(id);
  }
  return hung;
}

type RepairOutcome = { kind: 'fixed' | 'code_bug' | 'dropped'; reason: string; attempts: number };

async function repairLoop(ctx: VerifyContext, runner: CaseRunner, flush: () => Promise<void>, w: Working, id: string, tc: TestCase | undefined, message: string): Promise<RepairOutcome> {
  const previous: { test: string; error: string }[] = [];
  let error = message;
  let test = testSource(w.path, w.content, id)!;
  for (let attempt = 1; attempt <= ctx.params.repairAttempts; attempt++) {
    let reply;
    try {
      ctx.info(`verify: repairing ${id} (attempt ${attempt} of ${ctx.params.repairAttempts}) in a new session`);
      reply = await requestRepair(ctx.provider, ctx.store, {
        run: ctx.run(), engineerArtifactId: ctx.engineerArtifactId, framework: ctx.plan.framework, file: w.path, testCase: tc, caseId: id, test, error, attempt, previous: [...previous],
      }, ctx.signal);
    } catch (e) {
      if (e instanceof CancelledError) throw e;
      const invalid = e instanceof MalformedLlmOutput || e instanceof SchemaValidationError;
      await ctx.update((v) => { v.repairs.push({ caseId: id, attempt, outcome: 'invalid_reply', error: errorMessage(e) }); });
      if (invalid) continue;
      return { kind: 'dropped', reason: `repair unavailable (${e instanceof AmtpError ? e.kind : 'error'}: ${errorMessage(e)}); the test failed: ${firstLine(message)}`, attempts: attempt };
    }
    const { reply: r, artifactId } = reply;
    if (r.verdict === 'code_bug') {
      await ctx.update((v) => { v.repairs.push({ caseId: id, attempt, outcome: 'code_bug', artifactId }); });
      return { kind: 'code_bug', reason: `possible bug (repair session): ${r.reason}; observed: ${firstLine(message)}`, attempts: attempt };
    }
    if (r.verdict === 'cannot_fix') {
      await ctx.update((v) => { v.repairs.push({ caseId: id, attempt, outcome: 'cannot_fix', artifactId }); });
      return { kind: 'dropped', reason: `the repair session could not fix it: ${r.reason}`, attempts: attempt };
    }
    let candidate: string;
    try {
      candidate = replaceTest(w.path, w.content, id, r.test!);
      if (!findTests(w.path, candidate).some((b) => b.caseId === id)) throw new Error('the replacement is not a test named with the case id');
    } catch (e) {
      await ctx.update((v) => { v.repairs.push({ caseId: id, attempt, outcome: 'invalid_reply', error: errorMessage(e), artifactId }); });
      previous.push({ test: r.test!, error: errorMessage(e) });
      continue;
    }
    await putFile(ctx.gateway, ctx.workspace, ctx.log, ctx.run().id, w.path, candidate, `repair attempt ${attempt} of ${id}`);
    let ok = true;
    for (let run = 1; run <= ctx.params.runs && ok; run++) {
      const { obs } = await runner.run(w.path, [id], { grep: id });
      const o = obs.get(id)!;
      if (o.status !== 'passed') {
        ok = false;
        error = o.message ?? o.status;
      }
    }
    await flush();
    if (ok) {
      w.content = candidate;
      await ctx.update((v) => { v.repairs.push({ caseId: id, attempt, outcome: 'fixed', artifactId }); });
      return { kind: 'fixed', reason: `repaired in ${attempt} attempt(s): ${r.reason}`, attempts: attempt };
    }
    await ctx.update((v) => { v.repairs.push({ caseId: id, attempt, outcome: 'still_failing', error: firstLine(error), artifactId }); });
    previous.push({ test: r.test!, error });
    test = r.test!;
    await putFile(ctx.gateway, ctx.workspace, ctx.log, ctx.run().id, w.path, w.content, `reverts repair attempt ${attempt} of ${id}`);
  }
  return { kind: 'dropped', reason: `still failing after ${ctx.params.repairAttempts} repair attempt(s): ${firstLine(error)}`, attempts: ctx.params.repairAttempts };
}
