// The one path by which AMTP asks a model anything: agent batches (./batchSession.ts), repairs
// (verifier/repair.ts) and coverage and mutation rounds (verifier/roundSession.ts). Each attempt is
// a brand-new session sent exactly two messages with the run's sampling parameters; the reply is
// accepted at the boundary (sanitize → parse → validate → `check`) and persisted as an artifact;
// a failed attempt is sent again or not by the one retry policy (./retry.ts). No memory crosses an
// attempt: the session is dropped when its reply is back.
import type { AgentId, ArtifactKind } from '../core/agents';
import { canonicalJson, sha256 } from '../core/canonical';
import { AmtpError, CancelledError, SchemaValidationError, errorMessage, type ContractError } from '../core/errors';
import type { Artifact } from '../core/run';
import { replyUsage, type TokenUsage } from '../core/usage';
import { selfContained } from '../contracts/selfContained';
import type { SchemaTypes } from '../contracts/schemaTypes';
import type { SchemaName } from '../contracts/schemas';
import { acceptAs } from '../llm/accept';
import { MalformedLlmOutput, OutputTruncated, usageOf } from '../llm/errors';
import type { ChatReply, ChatRequest, LlmProvider } from '../llm/provider';
import { SANITIZER_VERSION } from '../llm/sanitize';
import type { RunStore } from '../store/types';
import { RateGate } from './rateGate';
import { retryStep, sleep, type RetryBudget, type RetryRules } from './retry';
import { planAfterTruncation } from './truncation';

export interface ModelCall<S extends SchemaName> {
  provider: LlmProvider;
  /** whose session it is */
  agent: AgentId;
  model: string;
  messages: ChatRequest['messages'];
  maxOutputTokens?: number;
  sampling: { temperature: number; seed: number };
  /** the reply's contract: asked for as structured output, then validated */
  schema: S;
  /** names the call in errors and log lines */
  who: string;
  /** what else the reply must satisfy (fit its batch, keep its case id); a breach makes it a SchemaValidationError */
  check?: (value: SchemaTypes[S]) => ContractError | undefined;
  /** where the accepted reply is kept */
  persistAs: { store: RunStore; runId: string; kind: ArtifactKind };
  retry: RetryRules;
  /** the 429 hold shared with other calls (a stage's batches); the call's own otherwise */
  gate?: RateGate;
  signal?: AbortSignal;
  /** before each attempt: its number, kept with the request (recordings) and the artifact */
  startAttempt: () => Promise<number> | number;
  /** after each failed attempt, with the tokens of any reply it received, before the policy decides */
  attemptFailed?: (e: unknown, attempt: number, spent: TokenUsage | undefined) => Promise<void>;
  /** a reply cut at the output bound: `stop` when the caller cuts its work in halves instead; by default it is sent once more */
  truncated?: (e: OutputTruncated, times: number) => Promise<'retry' | 'stop' | undefined>;
  log?: (message: string) => void;
}

export type ModelAnswer<S extends SchemaName> =
  | { ok: true; value: SchemaTypes[S]; artifact: Artifact; usage: TokenUsage; attempt: number }
  /** `error` is the last attempt's; `reason` says why the call ended without an accepted reply */
  | { ok: false; error: unknown; reason: string; attempt: number };

export async function askModel<S extends SchemaName>(call: ModelCall<S>): Promise<ModelAnswer<S>> {
  const gate = call.gate ?? new RateGate();
  const spent: RetryBudget = { malformed: 0, transport: 0, truncated: 0 };
  const request: Omit<ChatRequest, 'attempt' | 'signal'> = {
    agent: call.agent,
    model: call.model,
    messages: call.messages,
    temperature: call.sampling.temperature,
    top_p: 1,
    seed: call.sampling.seed,
    responseSchema: { name: call.schema, schema: selfContained(call.schema) as Record<string, unknown> },
    ...(call.maxOutputTokens ? { maxOutputTokens: call.maxOutputTokens } : {}),
  };
  for (;;) {
    if (call.signal?.aborted) throw new CancelledError();
    await gate.pass(call.signal);
    const attempt = await call.startAttempt();
    // This attempt's reply is paid for whether it is accepted or not: its tokens are counted either way.
    let reply: ChatReply | undefined;
    try {
      reply = await call.provider.openSession(call.agent).complete({ ...request, attempt, signal: call.signal });
      const value = accept(call, reply.content);
      const artifact = await call.persistAs.store.putArtifact(call.persistAs.runId, call.persistAs.kind, value as object, {
        sanitizer: SANITIZER_VERSION,
        provider: call.provider.name,
        model: reply.model || call.model,
        seed: call.sampling.seed,
        temperature: call.sampling.temperature,
        promptHash: sha256(canonicalJson(call.messages)),
        attempt,
      });
      return { ok: true, value, artifact, usage: replyUsage(reply.usage), attempt };
    } catch (e) {
      if (e instanceof CancelledError) throw e;
      await call.attemptFailed?.(e, attempt, failedAttemptUsage(e, reply));
      const next = await afterFailure(call, gate, e, spent);
      if (next !== 'retry') return { ok: false, error: e, reason: next, attempt };
    }
  }
}

/** 'retry' (after its wait) or why the call ends. */
async function afterFailure<S extends SchemaName>(c: ModelCall<S>, gate: RateGate, e: unknown, budget: RetryBudget): Promise<string> {
  const step = retryStep(e, budget, c.retry);
  const what = errorMessage(e);
  const say = (why: string) => c.log?.(`${what.startsWith(c.who) ? what : `${c.who}: ${what}`}; ${why}`);
  switch (step.action) {
    case 'stop':
      return e instanceof AmtpError ? e.message : `${c.who} failed: ${errorMessage(e)}`;
    case 'give_up':
      return `${c.who}: ${step.reason}`;
    case 'truncated': {
      const cut = e as OutputTruncated;
      const own = await c.truncated?.(cut, step.times);
      if (own === 'stop') return `${c.who}: ${cut.message}`;
      const plan = planAfterTruncation(cut, step.times, false);
      if (plan.action === 'fail') return `${c.who}: ${plan.reason}`;
      say('it cannot be cut further: retrying once in a new session');
      return 'retry';
    }
    case 'retry':
      say(step.why);
      if (step.holdAll) gate.hold(step.delayMs);
      else if (step.delayMs) await sleep(step.delayMs, c.signal);
      return 'retry';
  }
}

/** The reply as its contract's value, which must also pass the call's own check. */
function accept<S extends SchemaName>(call: ModelCall<S>, content: string): SchemaTypes[S] {
  const value = acceptAs(call.schema, call.who, content);
  const misfit = call.check?.(value);
  if (misfit) throw new SchemaValidationError(`${call.who}: ${misfit.message}`, call.schema, [misfit]);
  return value;
}

/**
 * The tokens a failed attempt is billed for: a reply that came back and was rejected, or a cut or
 * unparsable one (its usage, if reported, rides on the error); undefined when no reply was received.
 */
function failedAttemptUsage(e: unknown, reply: ChatReply | undefined): TokenUsage | undefined {
  const received = reply !== undefined || e instanceof MalformedLlmOutput || e instanceof OutputTruncated;
  return received ? replyUsage(reply ? reply.usage : usageOf(e)) : undefined;
}
