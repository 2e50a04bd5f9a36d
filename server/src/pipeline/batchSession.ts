// One batch of one agent's work: its own brand-new session per attempt, its own envelope, the reply
// accepted at the boundary (sanitize → parse → validate → fits its batch), its own artifact.
import { BATCH_KIND, type AgentId } from '../core/agents';
import { canonicalJson, sha256 } from '../core/canonical';
import { SchemaValidationError, errorKind, errorMessage } from '../core/errors';
import { crashPoint } from '../core/faults';
import { DEFAULT_BATCHING, type ActivityError, type Artifact, type BatchRecord, type RunRecord } from '../core/run';
import { addUsage, type TokenUsage } from '../core/usage';
import { OUTPUT_SCHEMA, type AgentInputs, type AgentOutputs } from '../contracts/agentSchemas';
import { buildEnvelope, type HandoffEnvelope } from '../contracts/envelope';
import type { AgentBatching, PlannedBatch } from '../agents/batching';
import { estimateTokens } from '../agents/budget';
import { MalformedLlmOutput, OutputTruncated } from '../llm/errors';
import type { ChatRequest } from '../llm/provider';
import { sessionKey } from '../store/types';
import { askModel } from './askModel';
import type { RateGate } from './rateGate';
import { DEFAULT_BACKOFF } from './retry';
import type { StageContext } from './stage';
import { lessonReserve, lessonsFor } from './lessons';

/** What a batch ended as; `needs_review` and `failed` stop the agent's other batches from starting. */
export type BatchEnd = 'done' | 'split' | 'needs_review' | 'failed';

export interface BatchJob<A extends AgentId> {
  agent: A;
  batching: AgentBatching<A>;
  planned: PlannedBatch<A>;
  /** what the envelope says: the planned batch's index and count, and which half of it this is */
  position: NonNullable<HandoffEnvelope['batch']>;
  systemPrompt: string;
  /** estimated request tokens of a payload (for the records of a split batch's halves) */
  requestTokens: (payload: AgentInputs[A]) => number;
  /** where the payload came from: the envelope's from_agent and artifact_id */
  from: { agent: HandoffEnvelope['from_agent']; artifactId: string | null };
  /** session artifacts already on disk (an interrupted run's), by kind and prompt hash */
  adoptable: Map<string, Artifact>;
  gate: RateGate;
}

export async function runBatch<A extends AgentId>(ctx: StageContext, job: BatchJob<A>, index: number): Promise<BatchEnd> {
  const session = await prepareBatch(ctx, job, index);
  if (typeof session === 'string') return session;
  const { deps, state } = ctx;
  const { agent } = job;
  const params = state.run.params;
  const warn = (message: string) => deps.onEvent?.({ type: 'log', level: 'warn', message });
  let split = false;
  const answer = await askModel({
    provider: deps.provider,
    agent,
    model: params.models[agent],
    messages: session.messages,
    maxOutputTokens: params.batching?.outputTokens,
    sampling: params,
    schema: OUTPUT_SCHEMA[agent],
    who: session.where,
    check: (output) => {
      const misfit = job.batching.check?.(job.planned.payload, output as AgentOutputs[A]);
      return misfit ? { path: '/', message: misfit, keyword: 'batch' } : undefined;
    },
    persistAs: { store: deps.store, runId: state.run.id, kind: BATCH_KIND[agent] },
    retry: { maxAttempts: params.maxAttempts, backoff: { ...DEFAULT_BACKOFF, ...deps.backoff } },
    gate: job.gate,
    signal: deps.signal,
    startAttempt: () => startAttempt(ctx, job, index),
    attemptFailed: (e, attempt, tokens) => recordFailedAttempt(ctx, agent, index, e, attempt, tokens),
    // A cut reply: the batch is cut in two halves when it can be, each sent in a new session.
    truncated: async (e) => {
      const halves = job.batching.split(job.planned.payload);
      if (!halves) return undefined;
      await splitBatch(ctx, job, index, halves);
      crashPoint(`${agent}:batch:split`);
      warn(`${session.where}: ${e.message}; cutting the batch in two halves, each sent in a new session`);
      split = true;
      return 'stop';
    },
    log: warn,
  });
  if (answer.ok) {
    await commitBatch(ctx, agent, index, answer.artifact, answer.usage);
    return 'done';
  }
  if (split) return 'split';
  if (answer.error instanceof SchemaValidationError) return review(ctx, agent, index, answer.error, answer.attempt);
  return fail(ctx, agent, index, answer.reason);
}

/** The parts of a batch's request that stay the same across its attempts. */
interface Session {
  /** names the batch in log lines and failure reasons */
  where: string;
  messages: ChatRequest['messages'];
}

/** The lessons about the batch's own code, within the share of the budget kept for them; none for the crawler. */
function batchLessons<A extends AgentId>(agent: A, payload: AgentInputs[A], run: RunRecord): Pick<HandoffEnvelope, 'lessons'> {
  const all = run.params.lessons ?? [];
  if (!all.length || agent === 'crawler') return {};
  const targets =
    agent === 'engineer'
      ? (payload as AgentInputs['engineer']).cases.map((c) => ({ file: c.case.target.file, symbol: c.case.target.symbol }))
      : (payload as AgentInputs['generator']).key_files.flatMap((f) => [
          { file: f.path },
          ...f.symbols.map((s) => ({ file: f.path, symbol: s.name })),
        ]);
  const picked = lessonsFor(all, targets, lessonReserve(run.params.batching?.inputTokens ?? DEFAULT_BATCHING.inputTokens));
  return picked.length ? { lessons: picked } : {};
}

/** Changes this batch's record (and through `r`, anything else of the run) and saves it. */
async function saveBatch(ctx: StageContext, agent: AgentId, index: number, mut: (b: BatchRecord, r: RunRecord) => void): Promise<void> {
  await ctx.save((r) =>
    mut(
      r.activities.find((a) => a.agent === agent)!.batches!.find((b) => b.index === index)!,
      r,
    ),
  );
}

/**
 * Builds the batch's envelope and request; the batch ends here instead (the string it returns) when its
 * payload does not fit the input schema or an interrupted run already persisted this prompt's artifact.
 */
async function prepareBatch<A extends AgentId>(ctx: StageContext, job: BatchJob<A>, index: number): Promise<Session | BatchEnd> {
  const { deps, state } = ctx;
  const { agent } = job;
  const params = state.run.params;
  const where = `${agent} batch ${job.position.index}/${job.position.count}${job.position.part ? ` (part ${job.position.part})` : ''}`;
  let envelope: string;
  try {
    envelope = buildEnvelope({
      schema_version: '1',
      run_id: state.run.id,
      from_agent: job.from.agent,
      to_agent: agent,
      artifact_id: job.from.artifactId,
      payload: job.planned.payload,
      batch: job.position,
      params: paramsFor(agent, state.run),
      ...batchLessons(agent, job.planned.payload, state.run),
    });
  } catch (e) {
    if (e instanceof SchemaValidationError) return review(ctx, agent, index, e, 0);
    throw e;
  }
  const messages: ChatRequest['messages'] = [
    { role: 'system', content: job.systemPrompt },
    { role: 'user', content: envelope },
  ];
  // What goes to a model is held to the input bound; the offline engines send nothing anywhere.
  const tokens = estimateTokens(job.systemPrompt) + estimateTokens(envelope);
  const limit = params.batching?.inputTokens ?? DEFAULT_BATCHING.inputTokens;
  if (tokens > limit && deps.provider.name !== 'offline') return oversize(ctx, job, index, where, tokens, limit);
  const promptHash = sha256(canonicalJson(messages));
  const orphan = job.adoptable.get(sessionKey(BATCH_KIND[agent], promptHash));
  if (orphan) {
    deps.onEvent?.({ type: 'log', level: 'info', message: `${where}: adopting artifact ${orphan.id}, persisted before an interruption` });
    await saveBatch(ctx, agent, index, (b) => {
      b.status = 'completed';
      b.artifactId = orphan.id;
      b.endedAt = new Date().toISOString();
    });
    return 'done';
  }
  return { where, messages };
}

/**
 * A request over --max-input-tokens is never sent. The planner sizes batches to fit, so this is what
 * an earlier agent's output carried in (a model that wrote far more than a map needs): the batch is
 * cut in two halves when it can be, else it fails with the reason.
 */
async function oversize<A extends AgentId>(
  ctx: StageContext,
  job: BatchJob<A>,
  index: number,
  where: string,
  tokens: number,
  limit: number,
): Promise<BatchEnd> {
  const what = `${where}: the request would be ${tokens} tokens, over --max-input-tokens ${limit}`;
  const halves = job.batching.split(job.planned.payload);
  if (!halves)
    return fail(ctx, job.agent, index, `${what}, and the batch cannot be cut further: an earlier agent's output is too large to pass on`);
  await splitBatch(ctx, job, index, halves);
  ctx.deps.onEvent?.({ type: 'log', level: 'warn', message: `${what}; cutting the batch in two halves` });
  return 'split';
}

/** Records the start of the next attempt (on the batch and its agent) and announces it; returns its number. */
async function startAttempt<A extends AgentId>(ctx: StageContext, job: BatchJob<A>, index: number): Promise<number> {
  const { agent } = job;
  const attempt = ctx.state.run.activities.find((a) => a.agent === agent)!.batches!.find((b) => b.index === index)!.attempts + 1;
  await saveBatch(ctx, agent, index, (b, r) => {
    b.status = 'running';
    b.attempts = attempt;
    b.startedAt ??= new Date().toISOString();
    r.activities.find((a) => a.agent === agent)!.attempts++;
  });
  ctx.deps.onEvent?.({ type: 'activity', runId: ctx.state.run.id, agent, attempt, batch: job.position });
  return attempt;
}

/** Commits the batch whose reply was accepted and persisted, with the reply's tokens. */
async function commitBatch(ctx: StageContext, agent: AgentId, index: number, artifact: Artifact, tokens: TokenUsage): Promise<void> {
  crashPoint(`${agent}:batch:persisted`);
  await saveBatch(ctx, agent, index, (b, r) => {
    b.status = 'completed';
    b.artifactId = artifact.id;
    b.endedAt = new Date().toISOString();
    const a = r.activities.find((x) => x.agent === agent)!;
    a.usage = addUsage(a.usage, tokens);
  });
  crashPoint(`${agent}:batch:committed`);
}

/** Records the attempt's error on the batch and its agent, and the tokens of any reply it received. */
async function recordFailedAttempt(
  ctx: StageContext,
  agent: AgentId,
  index: number,
  e: unknown,
  attempt: number,
  tokens: TokenUsage | undefined,
): Promise<void> {
  const err: ActivityError = {
    kind: errorKind(e),
    message: errorMessage(e),
    attempt,
    at: new Date().toISOString(),
    batch: index,
    ...(e instanceof SchemaValidationError ? { details: e.errors } : {}),
    ...(e instanceof MalformedLlmOutput || e instanceof OutputTruncated ? { excerpt: e.excerpt } : {}),
  };
  await saveBatch(ctx, agent, index, (b, r) => {
    b.errors.push(err);
    const a = r.activities.find((x) => x.agent === agent)!;
    a.errors.push(err);
    if (tokens) a.usage = addUsage(a.usage, tokens);
  });
}

/** Marks a batch split and adds its two halves as new pending batches (their payloads are re-derived from the record on resume). */
async function splitBatch<A extends AgentId>(
  ctx: StageContext,
  job: BatchJob<A>,
  index: number,
  halves: [AgentInputs[A], AgentInputs[A]],
): Promise<void> {
  await ctx.save((r) => {
    const a = r.activities.find((x) => x.agent === job.agent)!;
    const batches = a.batches!;
    const b = batches.find((x) => x.index === index)!;
    const first = batches.length + 1;
    b.status = 'split';
    b.parts = [first, first + 1];
    b.endedAt = new Date().toISOString();
    halves.forEach((payload, i) => {
      const part = `${b.part ? `${b.part}.` : ''}${i + 1}`;
      batches.push({
        index: first + i,
        key: `${b.key} (part ${part})`,
        status: 'pending',
        attempts: 0,
        errors: [],
        requestTokens: job.requestTokens(payload),
        parent: index,
        part,
      });
    });
  });
}

function paramsFor(agent: AgentId, run: RunRecord): HandoffEnvelope['params'] {
  if (agent === 'generator') return { depth_level: run.params.depth };
  if (agent === 'engineer') return { target_framework: run.params.framework };
  return {};
}

async function review(ctx: StageContext, agent: AgentId, index: number, e: SchemaValidationError, attempt: number): Promise<BatchEnd> {
  await ctx.save((r) => {
    const a = r.activities.find((x) => x.agent === agent)!;
    const b = a.batches!.find((x) => x.index === index)!;
    if (attempt === 0) {
      const err: ActivityError = {
        kind: e.kind,
        message: e.message,
        attempt,
        at: new Date().toISOString(),
        details: e.errors,
        batch: index,
      };
      b.errors.push(err);
      a.errors.push(err);
    }
    b.status = 'needs_review';
    a.status = 'needs_review';
    r.status = 'needs_review';
    r.reason = e.message;
  });
  return 'needs_review';
}

async function fail(ctx: StageContext, agent: AgentId, index: number, reason: string): Promise<BatchEnd> {
  await ctx.save((r) => {
    const a = r.activities.find((x) => x.agent === agent)!;
    a.batches!.find((x) => x.index === index)!.status = 'failed';
    a.status = 'failed';
    r.status = 'failed';
    r.reason = reason;
  });
  return 'failed';
}
