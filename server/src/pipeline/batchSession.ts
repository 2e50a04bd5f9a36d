// One batch of one agent's work: its own brand-new session per attempt, its own envelope, the reply
// accepted at the boundary (sanitize → parse → validate → fits its batch), its own artifact.
import { BATCH_KIND, type AgentId } from '../core/agents';
import { canonicalJson, sha256 } from '../core/canonical';
import { AmtpError, CancelledError, SchemaValidationError, errorKind, errorMessage } from '../core/errors';
import { crashPoint } from '../core/faults';
import type { ActivityError, Artifact, BatchRecord, RunRecord } from '../core/run';
import { OUTPUT_SCHEMA, type AgentOutputs } from '../contracts/agentSchemas';
import { buildEnvelope, type HandoffEnvelope } from '../contracts/envelope';
import type { AgentBatching, PlannedBatch } from '../agents/batching';
import { acceptReply } from '../llm/accept';
import { MalformedLlmOutput, RateLimitError, TransientLlmError } from '../llm/errors';
import type { ChatRequest } from '../llm/provider';
import { SANITIZER_VERSION } from '../llm/sanitize';
import type { RateGate } from './rateGate';
import { DEFAULT_BACKOFF, backoffDelay, sleep, type BackoffPolicy } from './retry';
import type { StageContext } from './stage';
import { sessionKey } from './store';

/** What a batch ended as; anything but `done` stops the agent's other batches from starting. */
export type BatchEnd = 'done' | 'needs_review' | 'failed';

export interface BatchJob<A extends AgentId> {
  agent: A;
  batching: AgentBatching<A>;
  planned: PlannedBatch<A>;
  count: number;
  systemPrompt: string;
  /** where the payload came from: the envelope's from_agent and artifact_id */
  from: { agent: HandoffEnvelope['from_agent']; artifactId: string | null };
  /** session artifacts already on disk (an interrupted run's), by kind and prompt hash */
  adoptable: Map<string, Artifact>;
  gate: RateGate;
}

export async function runBatch<A extends AgentId>(ctx: StageContext, job: BatchJob<A>, index: number): Promise<BatchEnd> {
  const { deps, state } = ctx;
  const { agent } = job;
  const params = state.run.params;
  const setBatch = (mut: (b: BatchRecord, r: RunRecord) => void) =>
    ctx.save((r) => mut(r.activities.find((a) => a.agent === agent)!.batches!.find((b) => b.index === index)!, r));
  let envelope: string;
  try {
    envelope = buildEnvelope({
      schema_version: '1', run_id: state.run.id, from_agent: job.from.agent, to_agent: agent, artifact_id: job.from.artifactId,
      payload: job.planned.payload, batch: { index, count: job.count }, params: paramsFor(agent, state.run),
    });
  } catch (e) {
    if (e instanceof SchemaValidationError) return review(ctx, agent, index, e, 0);
    throw e;
  }
  const messages: ChatRequest['messages'] = [{ role: 'system', content: job.systemPrompt }, { role: 'user', content: envelope }];
  const promptHash = sha256(canonicalJson(messages));
  const model = params.models[agent];
  const orphan = job.adoptable.get(sessionKey(BATCH_KIND[agent], promptHash));
  if (orphan) {
    deps.onEvent?.({ type: 'log', level: 'info', message: `${agent} batch ${index}/${job.count}: adopting artifact ${orphan.id}, persisted before an interruption` });
    await setBatch((b) => { b.status = 'completed'; b.artifactId = orphan.id; b.endedAt = new Date().toISOString(); });
    return 'done';
  }
  const policy: BackoffPolicy = { ...DEFAULT_BACKOFF, ...deps.backoff };
  let malformed = 0;
  let transport = 0;
  for (;;) {
    if (deps.signal?.aborted) throw new CancelledError();
    await job.gate.pass(deps.signal);
    const attempt = state.run.activities.find((a) => a.agent === agent)!.batches!.find((b) => b.index === index)!.attempts + 1;
    await setBatch((b, r) => {
      b.status = 'running';
      b.attempts = attempt;
      b.startedAt ??= new Date().toISOString();
      r.activities.find((a) => a.agent === agent)!.attempts++;
    });
    deps.onEvent?.({ type: 'activity', runId: state.run.id, agent, attempt, batch: { index, count: job.count } });
    try {
      // A brand-new session per attempt; it is dropped when this block ends.
      const reply = await deps.provider.openSession(agent).complete({ agent, model, messages, temperature: params.temperature, top_p: 1, seed: params.seed, attempt, signal: deps.signal });
      const output: AgentOutputs[A] = acceptReply(agent, reply.content);
      const misfit = job.batching.check?.(job.planned.payload, output);
      if (misfit) throw new SchemaValidationError(`${agent} batch ${index}/${job.count}: ${misfit}`, OUTPUT_SCHEMA[agent], [{ path: '/', message: misfit, keyword: 'batch' }]);
      const artifact = await deps.store.putArtifact(state.run.id, BATCH_KIND[agent], output, {
        sanitizer: SANITIZER_VERSION, provider: deps.provider.name, model: reply.model || model, seed: params.seed, temperature: params.temperature, promptHash, attempt,
      });
      crashPoint(`${agent}:batch:persisted`);
      await setBatch((b) => { b.status = 'completed'; b.artifactId = artifact.id; b.endedAt = new Date().toISOString(); });
      crashPoint(`${agent}:batch:committed`);
      return 'done';
    } catch (e) {
      if (e instanceof CancelledError) throw e;
      const err: ActivityError = {
        kind: errorKind(e), message: errorMessage(e), attempt, at: new Date().toISOString(), batch: index,
        ...(e instanceof SchemaValidationError ? { details: e.errors } : {}), ...(e instanceof MalformedLlmOutput ? { excerpt: e.excerpt } : {}),
      };
      await setBatch((b, r) => { b.errors.push(err); r.activities.find((a) => a.agent === agent)!.errors.push(err); });
      const where = `${agent} batch ${index}/${job.count}`;
      if (e instanceof SchemaValidationError) return review(ctx, agent, index, e, attempt);
      if (e instanceof MalformedLlmOutput) {
        if (++malformed >= params.maxAttempts) return fail(ctx, agent, index, `${where} gave malformed output ${malformed} times: ${e.message}`);
        deps.onEvent?.({ type: 'log', level: 'warn', message: `${where}: ${e.message}; retrying in a new session` });
        continue;
      }
      if (e instanceof RateLimitError || e instanceof TransientLlmError) {
        if (++transport > policy.maxTransportRetries) return fail(ctx, agent, index, `${where}: gave up after ${transport} retries: ${e.message}`);
        const delay = backoffDelay(e, transport, policy);
        // A 429 holds every batch of the stage, not only this one.
        if (e instanceof RateLimitError) job.gate.hold(delay);
        deps.onEvent?.({ type: 'log', level: 'warn', message: `${where}: ${e.message}; retrying in ${delay} ms` });
        if (!(e instanceof RateLimitError)) await sleep(delay, deps.signal);
        continue;
      }
      // Configuration, store and other typed errors: retrying cannot help; their message says what to fix.
      return fail(ctx, agent, index, e instanceof AmtpError ? e.message : `${where} failed: ${errorMessage(e)}`);
    }
  }
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
      const err: ActivityError = { kind: e.kind, message: e.message, attempt, at: new Date().toISOString(), details: e.errors, batch: index };
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
