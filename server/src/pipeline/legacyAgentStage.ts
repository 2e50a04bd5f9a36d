// One agent as a single session, as AMTP ran before batching (format_version 1 recordings replay
// through it): the whole previous result in one envelope, the whole result in one reply.
import { ARTIFACT_KIND, type AgentId } from '../core/agents';
import { canonicalJson, sha256 } from '../core/canonical';
import { AmtpError, CancelledError, SchemaValidationError, errorKind, errorMessage } from '../core/errors';
import { crashPoint } from '../core/faults';
import type { ActivityRecord, RunRecord } from '../core/run';
import { buildEnvelope, type HandoffEnvelope } from '../contracts/envelope';
import { SCHEMAS } from '../contracts/schemas';
import { addUsage, replyUsage } from '../core/usage';
import { systemPrompt } from '../agents/prompts';
import { acceptAs } from '../llm/accept';
import type { SchemaName } from '../contracts/schemas';
import { MalformedLlmOutput, OutputTruncated, RateLimitError, TransientLlmError } from '../llm/errors';
import type { ChatReply, ChatRequest } from '../llm/provider';
import { SANITIZER_VERSION } from '../llm/sanitize';
import { redactValue } from '../util/redact';
import type { PipelineDeps } from './deps';
import { DEFAULT_BACKOFF, backoffDelay, sleep, type BackoffPolicy } from './retry';
import type { Save, Stage, StageContext } from './stage';
import { planAfterTruncation } from './truncation';
import { askInNewSession } from './askInNewSession';
import { failedAttemptUsage, type RetryBudget } from './failedAttempt';

/** What each agent replied with before batching. */
const LEGACY_OUTPUT = { crawler: 'crawler-output', generator: 'test-cases', engineer: 'engineer-output' } as const satisfies Record<
  AgentId,
  SchemaName
>;
/** What each agent's single envelope carried. */
const LEGACY_INPUT = { crawler: 'crawler-output', generator: 'crawler-output', engineer: 'test-cases' } as const satisfies Record<
  AgentId,
  SchemaName
>;

/** The stage that runs `agent` in one session; a no-op once the agent's artifact is committed. */
export function legacyAgentStage(agent: AgentId): Stage {
  return async (ctx) => {
    const act = ctx.state.run.activities.find((a) => a.agent === agent)!;
    if (act.status === 'completed' && act.artifactId) return;
    await runActivity(ctx, agent);
  };
}

type EnvelopeParts = Omit<HandoffEnvelope, 'schema_version' | 'run_id' | 'to_agent'> & { payloadCanonical?: string };

async function payloadFor(deps: PipelineDeps, run: RunRecord, agent: AgentId): Promise<EnvelopeParts> {
  if (agent === 'crawler') {
    const map = await deps.crawl(deps.workspace);
    // Credential-shaped strings in workspace files never leave the machine: a model gets them redacted.
    const payload = deps.provider.name === 'offline' ? map : redactValue(map);
    return { from_agent: 'orchestrator', artifact_id: null, payload: payload as unknown as Record<string, unknown>, params: {} };
  }
  const from: AgentId = agent === 'generator' ? 'crawler' : 'generator';
  const prev = run.activities.find((a) => a.agent === from)!;
  // The previous agent's output is loaded from the store by id, never passed in memory.
  const { artifact, contentText } = await deps.store.loadArtifact(run.id, prev.artifactId!);
  const params = agent === 'generator' ? { depth_level: run.params.depth } : { target_framework: run.params.framework };
  return {
    from_agent: from,
    artifact_id: artifact.id,
    payload: artifact.content as Record<string, unknown>,
    params,
    payloadCanonical: contentText,
  };
}

async function runActivity(ctx: StageContext, agent: AgentId): Promise<void> {
  const { deps, state, save } = ctx;
  const policy: BackoffPolicy = { ...DEFAULT_BACKOFF, ...deps.backoff };
  await save((r) => {
    r.stage = agent;
  });
  const session = await openSession(ctx, agent);
  if (!session) return;
  const budget: RetryBudget = { malformed: 0, transport: 0, truncated: 0 };
  for (;;) {
    if (deps.signal?.aborted) throw new CancelledError();
    const attempt = await startAttempt(ctx, agent, session.request.model);
    // This attempt's reply is paid for whether it is accepted or not: its tokens are counted either way.
    let reply: ChatReply | undefined;
    try {
      reply = await askInNewSession(deps.provider, { ...session.request, attempt, signal: deps.signal }, state.run.params);
      await commitReply(ctx, agent, session.promptHash, attempt, reply);
      return;
    } catch (e) {
      if (e instanceof CancelledError) throw e;
      await recordFailedAttempt(save, agent, e, attempt, reply);
      if ((await afterFailure(ctx, agent, e, attempt, budget, policy)) === 'stop') return;
    }
  }
}

/** The parts of the agent's request that stay the same across its attempts. */
interface Session {
  request: Omit<ChatRequest, 'temperature' | 'top_p' | 'seed' | 'attempt' | 'signal'>;
  promptHash: string;
}

function saveActivity(save: Save, agent: AgentId, mut: (a: ActivityRecord) => void): Promise<void> {
  return save((r) => mut(r.activities.find((a) => a.agent === agent)!)).then(() => undefined);
}

/**
 * Builds the agent's envelope and request; undefined when the activity ends here instead: its input does
 * not fit the schema (review), or an interrupted run already persisted this prompt's artifact (adopted).
 */
async function openSession(ctx: StageContext, agent: AgentId): Promise<Session | undefined> {
  const { deps, state, save } = ctx;
  let envelope: string;
  try {
    const { payloadCanonical, ...parts } = await payloadFor(deps, state.run, agent);
    envelope = buildEnvelope(
      { schema_version: '1', run_id: state.run.id, to_agent: agent, ...parts },
      payloadCanonical,
      LEGACY_INPUT[agent],
    );
  } catch (e) {
    if (e instanceof SchemaValidationError) return void (await stopForReview(save, agent, e, 0));
    throw e;
  }
  const messages: ChatRequest['messages'] = [
    { role: 'system', content: deps.systemPrompts?.[agent] ?? systemPrompt(agent) },
    { role: 'user', content: envelope },
  ];
  const promptHash = sha256(canonicalJson(messages));
  const orphan = await deps.store.findUncommittedArtifact(state.run.id, ARTIFACT_KIND[agent], promptHash);
  if (orphan) {
    deps.onEvent?.({ type: 'log', level: 'info', message: `${agent}: adopting artifact ${orphan.id}, persisted before an interruption` });
    await saveActivity(save, agent, (a) => {
      a.status = 'completed';
      a.artifactId = orphan.id;
      a.endedAt = new Date().toISOString();
    });
    return undefined;
  }
  const schemaName = LEGACY_OUTPUT[agent];
  const responseSchema = { name: schemaName, schema: SCHEMAS[schemaName] as Record<string, unknown> };
  return { promptHash, request: { agent, model: state.run.params.models[agent], messages, responseSchema } };
}

/** Records the start of the next attempt and announces it; returns its number. */
async function startAttempt(ctx: StageContext, agent: AgentId, model: string): Promise<number> {
  const attempt = ctx.state.run.activities.find((a) => a.agent === agent)!.attempts + 1;
  await saveActivity(ctx.save, agent, (a) => {
    a.status = 'running';
    a.attempts = attempt;
    a.model = model;
    a.startedAt ??= new Date().toISOString();
  });
  ctx.deps.onEvent?.({ type: 'activity', runId: ctx.state.run.id, agent, attempt });
  return attempt;
}

/** Accepts the reply, persists it as the agent's artifact and completes the activity; throws what it rejects. */
async function commitReply(ctx: StageContext, agent: AgentId, promptHash: string, attempt: number, reply: ChatReply): Promise<void> {
  const { deps, state } = ctx;
  const { params } = state.run;
  const content = acceptAs(LEGACY_OUTPUT[agent], agent, reply.content);
  const artifact = await deps.store.putArtifact(state.run.id, ARTIFACT_KIND[agent], content, {
    sanitizer: SANITIZER_VERSION,
    provider: deps.provider.name,
    model: reply.model || params.models[agent],
    seed: params.seed,
    temperature: params.temperature,
    promptHash,
    attempt,
  });
  crashPoint(`${agent}:persisted`);
  const tokens = replyUsage(reply.usage);
  await saveActivity(ctx.save, agent, (a) => {
    a.status = 'completed';
    a.artifactId = artifact.id;
    a.endedAt = new Date().toISOString();
    a.usage = addUsage(a.usage, tokens);
  });
  crashPoint(`${agent}:committed`);
}

/** Records the attempt's error, and the tokens of any reply it received. */
async function recordFailedAttempt(save: Save, agent: AgentId, e: unknown, attempt: number, reply: ChatReply | undefined): Promise<void> {
  const err = {
    kind: errorKind(e),
    message: errorMessage(e),
    attempt,
    at: new Date().toISOString(),
    details: e instanceof SchemaValidationError ? e.errors : undefined,
    excerpt: e instanceof MalformedLlmOutput || e instanceof OutputTruncated ? e.excerpt : undefined,
  };
  const tokens = failedAttemptUsage(e, reply);
  await saveActivity(save, agent, (a) => {
    a.errors.push(err);
    if (tokens) a.usage = addUsage(a.usage, tokens);
  });
}

/** The retry policy: each failure kind spends its own budget; 'retry' sends the request again in a new session. */
async function afterFailure(
  ctx: StageContext,
  agent: AgentId,
  e: unknown,
  attempt: number,
  budget: RetryBudget,
  policy: BackoffPolicy,
): Promise<'retry' | 'stop'> {
  const { deps, save, state } = ctx;
  const log = (message: string) => deps.onEvent?.({ type: 'log', level: 'warn', message });
  if (e instanceof SchemaValidationError) return stopForReview(save, agent, e, attempt).then(() => 'stop');
  if (e instanceof MalformedLlmOutput) {
    if (++budget.malformed >= state.run.params.maxAttempts)
      return fail(save, agent, `${agent} gave malformed output ${budget.malformed} times: ${e.message}`).then(() => 'stop');
    log(`${agent}: ${e.message}; retrying in a new session`);
    return 'retry';
  }
  if (e instanceof OutputTruncated) {
    const plan = planAfterTruncation(e, ++budget.truncated, false);
    if (plan.action === 'fail') return fail(save, agent, `${agent}: ${plan.reason}`).then(() => 'stop');
    log(`${e.message}; retrying once in a new session`);
    return 'retry';
  }
  if (e instanceof RateLimitError || e instanceof TransientLlmError) {
    if (++budget.transport > policy.maxTransportRetries)
      return fail(save, agent, `${agent}: gave up after ${budget.transport} retries: ${e.message}`).then(() => 'stop');
    const delay = backoffDelay(e, budget.transport, policy);
    log(`${agent}: ${e.message}; retrying in ${delay} ms`);
    await sleep(delay, deps.signal);
    return 'retry';
  }
  // Configuration, store and other typed errors: retrying cannot help; their message says what to fix.
  await fail(save, agent, e instanceof AmtpError ? e.message : `${agent} failed: ${errorMessage(e)}`);
  return 'stop';
}

async function stopForReview(save: Save, agent: AgentId, e: SchemaValidationError, attempt: number): Promise<void> {
  await save((r) => {
    const a = r.activities.find((x) => x.agent === agent)!;
    if (attempt === 0) a.errors.push({ kind: e.kind, message: e.message, attempt, at: new Date().toISOString(), details: e.errors });
    a.status = 'needs_review';
    a.endedAt = new Date().toISOString();
    r.status = 'needs_review';
    r.reason = e.message;
  });
}

async function fail(save: Save, agent: AgentId, reason: string): Promise<void> {
  await save((r) => {
    const a = r.activities.find((x) => x.agent === agent)!;
    a.status = 'failed';
    a.endedAt = new Date().toISOString();
    r.status = 'failed';
    r.reason = reason;
  });
}
