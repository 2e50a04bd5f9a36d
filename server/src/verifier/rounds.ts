// Phase "rounds" (CoverUp-style), after the kept suite is confirmed: the functions it leaves partly
// uncovered (uncovered.ts) — or whose mutants survive, when a mutation engine is wired in
// (core/mutants.ts) — go to the engineer in bounded batches (roundBatches.ts, roundSession.ts) with
// their source and tests. A new test is kept only if it passes every run alone and covers a unit no
// kept test covers (or kills a mutant); the next round starts from the larger suite. At most
// `rounds` rounds, within `roundTokens` prompt tokens in all.
import { estimateTokens } from '../agents/budget';
import { CancelledError, errorMessage } from '../core/errors';
import type { SurvivingMutant } from '../core/mutants';
import { DEFAULT_BATCHING, type RoundRecord } from '../core/run';
import { addUsage, type TokenUsage } from '../core/usage';
import type { RoundInput, TestCase } from '../contracts/types';
import { frameworkConventions, projectConventions } from '../frameworks';
import type { CoverageUnits } from '../frameworks/runner';
import { putFile } from './files';
import { packRound, roundTargets, type RoundBatch } from './roundBatches';
import { requestRound, roundSystemPrompt } from './roundSession';
import type { TestFileState, VerifyState } from './state';
import { findTests, newTestFor } from './testFile';
import { uncoveredFunctions, type UncoveredFunction } from './uncovered';

/** Room an envelope needs besides its payload. */
const ENVELOPE_TOKENS = 96;

/** Runs the rounds; returns how many new tests were kept (0: the suite is as it was). */
export async function roundsPhase(s: VerifyState, covered: CoverageUnits, universe: CoverageUnits, modules: string[]): Promise<number> {
  const { ctx } = s;
  const rounds = ctx.params.rounds ?? 0;
  if (!rounds || ctx.provider.name === 'offline' || !ctx.map) return 0;
  const budget = { spent: 0, total: ctx.params.roundTokens ?? Infinity };
  const limits = ctx.run().params.batching ?? DEFAULT_BATCHING;
  const system = estimateTokens(roundSystemPrompt()) + ENVELOPE_TOKENS;
  const room = { payloadTokens: limits.inputTokens - system, outputTokens: limits.outputTokens };
  let kept = 0;
  // What each function was last asked with: asked again only when that changed (a reply's reasons
  // for not writing are not carried over, so the same question would get the same answer).
  const asked = new Map<string, string>();
  for (let r = 1; r <= rounds; r++) {
    const found = await withMutants(
      s,
      uncoveredFunctions(ctx.map, universe, covered).filter((f) => modules.includes(f.file)),
      modules,
    );
    if (!found.fns.length)
      return stop(s, kept, `round ${r}: no function is left with uncovered code${ctx.mutants ? ' or surviving mutants' : ''}`);
    const fns = { ...found, fns: found.fns.filter((f) => asked.get(askedKey(f)) !== askedWith(f, found.mutants)) };
    if (!fns.fns.length) return stop(s, kept, `round ${r}: every function left was already asked with the same uncovered code`);
    const batches = packRound(roundTargets(s, ctx.map, fns.fns, fns.mutants, r, room.payloadTokens), room);
    const record: RoundRecord = { round: r, targets: fns.fns.length, batches: [], kept: 0 };
    for (const [i, batch] of batches.entries()) {
      const payload = payloadOf(s, batch, r, rounds, i + 1, batches.length);
      const requestTokens = system + estimateTokens(payload);
      const row: RoundRecord['batches'][number] = { index: i + 1, key: batch.key, requestTokens, status: 'skipped', written: 0, kept: 0 };
      record.batches.push(row);
      if (budget.spent + requestTokens > budget.total) continue;
      budget.spent += requestTokens;
      await runBatch(s, payload, row, covered, fns.mutants);
      if (row.status === 'done')
        for (const f of fns.fns.filter((x) => batch.targets.some((t) => t.file === x.file && t.symbol === x.symbol.name)))
          asked.set(askedKey(f), askedWith(f, fns.mutants));
      record.kept += row.kept;
    }
    kept += record.kept;
    await ctx.update((v) => {
      (v.rounds ??= []).push(record);
    });
    if (record.batches.some((b) => b.status === 'skipped'))
      return stop(s, kept, `round ${r}: the round token budget (${budget.total}) is spent`);
  }
  return kept;
}

const askedKey = (f: UncoveredFunction) => `${f.file}#${f.symbol.name}`;

/** What a function is asked with: its uncovered lines and branch arms, and its survivors. */
function askedWith(f: UncoveredFunction, mutants: Map<string, SurvivingMutant[]>): string {
  return JSON.stringify([f.lines, f.branches, (mutants.get(askedKey(f)) ?? []).map((m) => m.id)]);
}

async function stop(s: VerifyState, kept: number, why: string): Promise<number> {
  await s.ctx.update((v) => {
    v.roundsStopped = why;
  });
  return kept;
}

/** With a mutation engine: each module function's survivors, and the fully covered ones that have some join the targets. */
async function withMutants(
  s: VerifyState,
  fns: UncoveredFunction[],
  modules: string[],
): Promise<{ fns: UncoveredFunction[]; mutants: Map<string, SurvivingMutant[]> }> {
  const mutants = new Map<string, SurvivingMutant[]>();
  const provider = s.ctx.mutants;
  if (!provider || !s.ctx.map) return { fns, mutants };
  const out = [...fns];
  for (const key of s.ctx.map.key_files.filter((k) => modules.includes(k.path)))
    for (const symbol of key.symbols) {
      if (!symbol.line || !symbol.end_line || (symbol.kind !== 'function' && symbol.kind !== 'method')) continue;
      const found = await provider.survivors({ file: key.path, symbol: symbol.name, line: symbol.line, endLine: symbol.end_line });
      if (!found.length) continue;
      mutants.set(`${key.path}#${symbol.name}`, found);
      if (!out.some((f) => f.file === key.path && f.symbol.name === symbol.name))
        out.push({ file: key.path, symbol, lines: [], branches: [] });
    }
  return { fns: out, mutants };
}

function payloadOf(s: VerifyState, batch: RoundBatch, round: number, of: number, index: number, count: number): RoundInput {
  const framework = s.ctx.plan.framework;
  const project = s.ctx.cases.project;
  return {
    schema_version: '1',
    round: { index: round, of, batch: index, batches: count },
    framework,
    files: batch.files,
    targets: batch.targets,
    conventions: [frameworkConventions(framework), projectConventions(framework, project)].filter(Boolean).join('\n'),
  };
}

/** One batch: ask (retried by the one policy), then try each new test. */
async function runBatch(
  s: VerifyState,
  payload: RoundInput,
  row: RoundRecord['batches'][number],
  covered: CoverageUnits,
  mutants: Map<string, SurvivingMutant[]>,
): Promise<void> {
  const { ctx } = s;
  const onUsage = (u: TokenUsage) =>
    ctx.update((v) => {
      v.usage = { ...v.usage, rounds: addUsage(v.usage?.rounds, u) };
    });
  const answer = await requestRound(ctx, payload, onUsage).catch((e: unknown) => {
    if (e instanceof CancelledError) throw e;
    return { ok: false as const, reason: errorMessage(e) };
  });
  if (!answer.ok) {
    Object.assign(row, { status: 'failed', error: answer.reason.slice(0, 300) });
    return;
  }
  Object.assign(row, { status: 'done', artifactId: answer.artifact.id, written: answer.value.tests.length, error: undefined });
  for (const t of answer.value.tests) if (await tryNewTest(s, payload, t, covered, mutants)) row.kept++;
}

/** Adds the test to its file, runs it alone every run (with coverage on the first); keeps it when it passes each and adds coverage. */
async function tryNewTest(
  s: VerifyState,
  payload: RoundInput,
  t: { case_id: string; test: string },
  covered: CoverageUnits,
  mutants: Map<string, SurvivingMutant[]>,
): Promise<boolean> {
  const { ctx } = s;
  const target = payload.targets.find((x) => x.case_ids.includes(t.case_id))!;
  const file = s.files.find((f) => f.path === target.test_file)!;
  const before = file.content;
  const content = `${before.trimEnd()}\n\n${newTestFor(file.path, before, t.test.trim(), t.case_id)}\n`;
  if (!findTests(file.path, content).some((b) => b.caseId === t.case_id)) return false;
  const put = (text: string, why: string) => putFile(ctx.gateway, ctx.workspace, ctx.log, ctx.run().id, file.path, text, why);
  if (!(await put(content, `coverage round ${payload.round.index}: tries ${t.case_id}`)).done) return false;
  const { units, passed, name } = await runAlone(s, file, t.case_id, [target.file]);
  const fresh = [...(units ?? [])].filter((u) => !covered.has(u));
  const survivors = mutants.get(`${target.file}#${target.symbol}`) ?? [];
  const killed = passed && survivors.length && ctx.mutants ? await ctx.mutants.kills(file.path, t.case_id, survivors) : [];
  if (!passed || (!fresh.length && !killed.length)) {
    await put(before, `coverage round ${payload.round.index}: ${t.case_id} ${passed ? 'adds no coverage' : 'does not pass every run'}`);
    return false;
  }
  file.content = content;
  file.ids.push(t.case_id);
  for (const u of units ?? []) covered.add(u);
  s.caseOf.set(t.case_id, roundCase(t.case_id, target, payload.round.index));
  if (name) s.names.set(t.case_id, name);
  const what = [
    fresh.length ? `covers ${fresh.length} unit(s) no kept test covered` : '',
    killed.length ? `kills ${killed.length} surviving mutant(s)` : '',
  ]
    .filter(Boolean)
    .join(' and ');
  s.results.set(t.case_id, {
    caseId: t.case_id,
    outcome: 'passing',
    reason: `coverage round ${payload.round.index}: ${what}`,
    test: name ?? t.case_id,
  });
  return true;
}

async function runAlone(
  s: VerifyState,
  file: TestFileState,
  id: string,
  coverageOf: string[],
): Promise<{ units?: CoverageUnits; passed: boolean; name?: string }> {
  let units: CoverageUnits | undefined;
  let name: string | undefined;
  for (let run = 1; run <= s.ctx.params.runs; run++) {
    const { obs, result } = await s.runner.run(file.path, [id], { grep: id, ...(run === 1 ? { coverageOf } : {}) });
    const o = obs.get(id);
    if (o?.status !== 'passed') {
      await s.flushPids();
      return { passed: false };
    }
    name ??= o.name;
    if (run === 1) units = result.units;
  }
  await s.flushPids();
  return { units, passed: true, ...(name ? { name } : {}) };
}

/** The plan-shaped case of a round's test, so the verifier's later steps (coverage priority, summary) know it. */
function roundCase(id: string, target: RoundInput['targets'][number], round: number): TestCase {
  return {
    id,
    title: `coverage round ${round}: ${target.symbol}`,
    target: { file: target.file, symbol: target.symbol },
    kind: 'boundary',
    priority: 'P3',
    preconditions: [],
    steps: [],
    expected: [],
    rationale: `added in coverage round ${round} for lines the kept tests left uncovered`,
  };
}
