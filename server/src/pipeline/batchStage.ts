// An agent as a stage of bounded batches: cut its source into batches (agents/<agent>/batches.ts),
// run them in a bounded pool (batchSession.ts), then merge their outputs, in batch order, into the
// agent's result artifact. Re-entrant: finished batches are never sent again on resume.
import { AGENTS, ARTIFACT_KIND, type AgentId } from '../core/agents';
import { SchemaValidationError } from '../core/errors';
import { crashPoint } from '../core/faults';
import { DEFAULT_BATCHING, type BatchRecord } from '../core/run';
import { RESULT_SCHEMA, type AgentOutputs, type AgentResults } from '../contracts/agentSchemas';
import { requireValid } from '../contracts/validate';
import type { HandoffEnvelope } from '../contracts/envelope';
import type { CrawlerOutput } from '../contracts/types';
import type { AgentBatching, AgentSources, DoneBatch, PlanContext, PlannedBatch } from '../agents/batching';
import { estimateTokens } from '../agents/budget';
import { systemPrompt } from '../agents/prompts';
import { scopeMap } from '../agents/crawler/scope';
import { LlmConfigError } from '../llm/errors';
import { redactValue } from '../util/redact';
import { runBatch, type BatchEnd, type BatchJob } from './batchSession';
import { ownTestFileIn } from './personTests';
import { pool } from './pool';
import { RateGate } from './rateGate';
import type { Stage, StageContext } from './stage';
import { testPlan } from './testPlan';
import { lessonReserve } from './lessons';

/** Room an envelope needs besides its payload (ids, params, the batch field, JSON punctuation). */
const ENVELOPE_TOKENS = 96;

export function batchedAgentStage<A extends AgentId>(agent: A, batching: AgentBatching<A>): Stage {
  // Named after its agent: the run's `timings` key (pipeline/orchestrator.ts).
  const stage: Stage = async (ctx) => {
    const act = () => ctx.state.run.activities.find((a) => a.agent === agent)!;
    if (act().status === 'completed' && act().artifactId) return;
    await ctx.save((r) => {
      r.stage = agent;
      const a = r.activities.find((x) => x.agent === agent)!;
      a.status = 'running';
      a.model = r.params.models[agent];
      a.startedAt ??= new Date().toISOString();
    });
    const prompt = ctx.deps.systemPrompts?.[agent] ?? systemPrompt(agent);
    const plan = planContext(ctx, agent, prompt);
    const { source, from } = await sourceOf(ctx, agent);
    const planned = batching.plan(source, plan);
    const requestTokens = (payload: unknown) => estimateTokens(prompt) + estimateTokens(payload) + ENVELOPE_TOKENS;
    await recordBatches(
      ctx,
      agent,
      planned.map((p) => ({ key: p.key, requestTokens: requestTokens(p.payload) })),
    );

    const adoptable = await ctx.deps.store.sessionArtifacts(ctx.state.run.id);
    const gate = new RateGate(ctx.deps.sharedLimit?.(ctx.state.run.params.models[agent]));
    const concurrency = ctx.state.run.params.batching?.concurrency ?? DEFAULT_BATCHING.concurrency;
    let stopped: BatchEnd | undefined;
    // A batch whose reply did not fit is split into two new pending batches: run until none is left.
    for (;;) {
      const pending = act()
        .batches!.filter((b) => b.status !== 'split' && !(b.status === 'completed' && b.artifactId))
        .map((b) => b.index);
      if (!pending.length) break;
      await pool(pending, concurrency, async (index) => {
        if (stopped) return;
        const job: BatchJob<A> = {
          agent,
          batching,
          planned: batchOf(act().batches!, planned, batching, index),
          position: positionOf(act().batches!, planned.length, index),
          systemPrompt: prompt,
          requestTokens,
          from,
          adoptable,
          gate,
        };
        const end = await runBatch(ctx, job, index);
        if (end === 'needs_review' || end === 'failed') stopped = end;
      });
      if (stopped) return;
    }
    await merge(ctx, agent, batching, source, planned, plan);
  };
  return Object.defineProperty(stage, 'name', { value: agent });
}

/** A batch's work: a planned batch, or a half of a split one (re-derived, so a resume sends the same halves). */
function batchOf<A extends AgentId>(
  records: BatchRecord[],
  planned: PlannedBatch<A>[],
  batching: AgentBatching<A>,
  index: number,
): PlannedBatch<A> {
  const b = records.find((x) => x.index === index)!;
  if (b.parent === undefined) return planned[index - 1];
  const halves = batching.split(batchOf(records, planned, batching, b.parent).payload);
  if (!halves) throw new Error(`batch ${index} is a half of batch ${b.parent}, which cannot be split`); // split() is pure: it could when the record was made
  return { key: b.key, payload: halves[Number(b.part!.slice(-1)) - 1] };
}

/** The planned batch a record belongs to, for the envelope. */
function positionOf(records: BatchRecord[], count: number, index: number): NonNullable<HandoffEnvelope['batch']> {
  let b = records.find((x) => x.index === index)!;
  const part = b.part;
  while (b.parent !== undefined) b = records.find((x) => x.index === b.parent)!;
  return { index: b.index, count, ...(part ? { part } : {}) };
}

/** Finished batches in merge order: planned order, a split batch's halves in its place. */
function leaves(records: BatchRecord[]): BatchRecord[] {
  const at = (i: number): BatchRecord[] => {
    const b = records.find((x) => x.index === i)!;
    return b.status === 'split' ? [...at(b.parts![0]), ...at(b.parts![1])] : [b];
  };
  return records.filter((b) => b.parent === undefined).flatMap((b) => at(b.index));
}

function planContext(ctx: StageContext, agent: AgentId, prompt: string): PlanContext {
  const { params } = ctx.state.run;
  const budget = params.batching ?? DEFAULT_BATCHING;
  // A run with lessons keeps a fixed share of each request for them (batchSession.ts adds them).
  const reserve = params.lessons?.length && agent !== 'crawler' ? lessonReserve(budget.inputTokens) : 0;
  const payloadTokens = budget.inputTokens - estimateTokens(prompt) - ENVELOPE_TOKENS - reserve;
  if (payloadTokens < 512) {
    throw new LlmConfigError(
      `the input budget (${budget.inputTokens} tokens) leaves no room for a ${agent} batch beside its ${estimateTokens(prompt)}-token system prompt: raise it (--max-input-tokens)`,
    );
  }
  return {
    budget: { payloadTokens, outputTokens: budget.outputTokens },
    depth: params.depth,
    framework: params.framework,
    ...(params.intoExisting ? { ownTestFile: ownTestFileIn(ctx.deps.workspace) } : {}),
  };
}

/** What the agent's batches are cut from, and where it came from (the envelope says). */
async function sourceOf<A extends AgentId>(ctx: StageContext, agent: A): Promise<{ source: AgentSources[A]; from: BatchJob<A>['from'] }> {
  const { deps, state } = ctx;
  if (agent === 'crawler') {
    return {
      source: (await staticMap(ctx)) as AgentSources[A],
      from: { agent: 'orchestrator', artifactId: state.run.activities[0].sourceArtifactId ?? null },
    };
  }
  const prev = AGENTS[AGENTS.indexOf(agent) - 1];
  const artifactId = state.run.activities.find((a) => a.agent === prev)!.artifactId!;
  if (agent === 'generator')
    return { source: (await deps.store.agentOutput(state.run, 'crawler')) as AgentSources[A], from: { agent: prev, artifactId } };
  // The generator's plan with the characterize stage's cases in place of the existence checks they replace.
  const source: AgentSources['engineer'] = {
    plan: await testPlan(deps.store, state.run),
    map: await deps.store.agentOutput(state.run, 'crawler'),
  };
  return { source: source as AgentSources[A], from: { agent: prev, artifactId } };
}

/**
 * The crawler's source: AMTP's static map, persisted the first time so a resumed run cuts the same
 * batches from the same map even if the workspace changed meanwhile. A model gets it with
 * credential-shaped strings redacted; the offline provider never sends anything anywhere.
 */
async function staticMap(ctx: StageContext): Promise<CrawlerOutput> {
  const { deps, state } = ctx;
  const kept = state.run.activities.find((a) => a.agent === 'crawler')!.sourceArtifactId;
  if (kept) return (await deps.store.getArtifact(state.run.id, kept)).content as CrawlerOutput; // validated when it was stored
  const crawled = await deps.crawl(deps.workspace);
  const map = state.run.params.scope ? scopeMap(crawled, state.run.params.scope) : crawled;
  const source = deps.provider.name === 'offline' ? map : redactValue(map);
  requireValid('crawler-output', source, 'static map');
  const artifact = await deps.store.putArtifact(state.run.id, 'static_map', source, { source: 'static-analysis' });
  await ctx.save((r) => {
    r.activities.find((a) => a.agent === 'crawler')!.sourceArtifactId = artifact.id;
  });
  return source;
}

/** The batch records of a plan; records of an earlier attempt at the same plan (and their halves) are kept as they are. */
async function recordBatches(ctx: StageContext, agent: AgentId, planned: { key: string; requestTokens: number }[]): Promise<void> {
  const recorded = ctx.state.run.activities.find((a) => a.agent === agent)!.batches;
  const before = (recorded ?? []).filter((b) => b.parent === undefined);
  // An empty plan is recorded too (as no batches): the stage reads the record next.
  const same = recorded !== undefined && before.length === planned.length && before.every((b, i) => b.key === planned[i].key);
  if (same) return;
  const batches: BatchRecord[] = planned.map((p, i) => ({
    index: i + 1,
    key: p.key,
    status: 'pending',
    attempts: 0,
    errors: [],
    requestTokens: p.requestTokens,
  }));
  await ctx.save((r) => {
    r.activities.find((a) => a.agent === agent)!.batches = batches;
  });
}

async function merge<A extends AgentId>(
  ctx: StageContext,
  agent: A,
  batching: AgentBatching<A>,
  source: AgentSources[A],
  planned: PlannedBatch<A>[],
  plan: PlanContext,
): Promise<void> {
  const { deps, state } = ctx;
  const records = state.run.activities.find((a) => a.agent === agent)!.batches!;
  const batches = leaves(records);
  // Each was validated against its contract before it was stored, and is hash-checked on load.
  const done: DoneBatch<A>[] = await Promise.all(
    batches.map(async (b) => ({
      payload: batchOf(records, planned, batching, b.index).payload,
      output: (await deps.store.getArtifact(state.run.id, b.artifactId!)).content as AgentOutputs[A],
    })),
  );
  let result: AgentResults[A];
  try {
    result = batching.merge(source, done, plan);
    requireValid(RESULT_SCHEMA[agent], result, `${agent} result merged from ${batches.length} batch(es)`);
  } catch (e) {
    if (!(e instanceof SchemaValidationError)) throw e;
    await ctx.save((r) => {
      const a = r.activities.find((x) => x.agent === agent)!;
      a.errors.push({ kind: e.kind, message: e.message, attempt: 0, at: new Date().toISOString(), details: e.errors });
      a.status = 'needs_review';
      r.status = 'needs_review';
      r.reason = e.message;
    });
    return;
  }
  const artifact = await deps.store.putArtifact(state.run.id, ARTIFACT_KIND[agent], result, {
    merged_from: batches.map((b) => b.artifactId!),
  });
  crashPoint(`${agent}:persisted`);
  await ctx.save((r) => {
    const a = r.activities.find((x) => x.agent === agent)!;
    a.status = 'completed';
    a.artifactId = artifact.id;
    a.endedAt = new Date().toISOString();
  });
  crashPoint(`${agent}:committed`);
}
