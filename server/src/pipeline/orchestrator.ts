import { randomBytes } from 'node:crypto';
import { systemPrompt } from '../agents/prompts';
import type { CrawlerOutput } from '../contracts/types';
import { type Approver } from '../gateway/gateway';
import type { RiskOverrides } from '../gateway/policy';
import {
  AmtpError, CancelledError, LlmConfigError, MalformedLlmOutput, RateLimitError, SchemaValidationError, TransientLlmError, errorKind, errorMessage,
} from '../llm/errors';
import type { ChatRequest, LlmProvider } from '../llm/provider';
import { SANITIZER_VERSION } from '../llm/sanitize';
import { acceptReply } from './boundary';
import { canonicalJson, sha256 } from './canonical';
import { buildEnvelope, type HandoffEnvelope } from './envelope';
import { crashPoint } from './faults';
import { DEFAULT_BACKOFF, backoffDelay, sleep, type BackoffPolicy } from './retry';
import type { RunStore } from './store';
import { AGENTS, ARTIFACT_KIND, type ActivityRecord, type AgentId, type RunParams, type RunRecord } from './types';
import { writeStage } from './writeStage';
import { verifyStage } from '../verifier/stage';
import type { Recorder } from '../record/recorder';
import { redactValue } from '../record/redact';
import { observableState } from './observable';

export type PipelineEvent =
  | { type: 'run'; run: RunRecord }
  | { type: 'activity'; runId: string; agent: AgentId; attempt: number }
  | { type: 'log'; level: 'info' | 'warn'; message: string };

export interface PipelineDeps {
  workspace: string;
  store: RunStore;
  provider: LlmProvider;
  approver: Approver;
  /** static analysis through the workspace tools; injectable so replays need no workspace */
  crawl: (workspace: string) => Promise<CrawlerOutput>;
  backoff?: Partial<BackoffPolicy>;
  riskOverrides?: RiskOverrides;
  signal?: AbortSignal;
  onEvent?: (e: PipelineEvent) => void;
  /** records state transitions (LLM and tool events are recorded by wrapping the provider and tools) */
  recorder?: Recorder;
  /** false when the workspace may not execute code (VS Code Restricted Mode); the verifier then runs nothing */
  canExecute?: () => boolean;
}

export function newRunId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
  return `r_${stamp}_${randomBytes(3).toString('hex')}`;
}

export async function startRun(deps: PipelineDeps, params: RunParams, runId = newRunId()): Promise<RunRecord> {
  await deps.store.init();
  const now = new Date().toISOString();
  const run: RunRecord = {
    schema_version: 1, id: runId, version: 0, status: 'running', stage: 'crawler', createdAt: now, updatedAt: now, params,
    activities: AGENTS.map((agent) => ({ agent, status: 'pending', attempts: 0, errors: [] })), files: [], approvals: [], audit: [],
  };
  return drive(deps, await deps.store.saveRun(run));
}

/** Continues a run from its last committed boundary. Completed agents are never called again. */
export async function resumeRun(deps: PipelineDeps, runId: string): Promise<RunRecord> {
  const first = await deps.store.getRun(runId);
  if (!first) throw new Error(`no run ${runId} in ${deps.store.dir}`);
  if (first.status === 'completed') return first;
  // Lock before the first write: a second resume is refused without touching the record, so it
  // cannot bump the version under the process that owns the run (which would then fail too).
  const release = await deps.store.lockRun(runId);
  let run: RunRecord;
  try {
    run = (await deps.store.getRun(runId))!; // re-read under the lock
    if (run.status === 'completed') {
      await release();
      return run;
    }
    run = await deps.store.saveRun({ ...run, status: 'running', reason: undefined });
  } catch (e) {
    await release();
    throw e;
  }
  return drive(deps, run, release);
}

async function drive(deps: PipelineDeps, initial: RunRecord, held?: () => Promise<void>): Promise<RunRecord> {
  const release = held ?? (await deps.store.lockRun(initial.id));
  const state = { run: initial };
  if (deps.recorder) deps.recorder.transition(null, observableState(initial).label, observableState(initial).state);
  const save = async (mut: (r: RunRecord) => void) => {
    const draft = structuredClone(state.run);
    mut(draft);
    const before = observableState(state.run);
    state.run = await deps.store.saveRun(draft);
    const after = observableState(state.run);
    if (deps.recorder && after.text !== before.text) deps.recorder.transition(before.label, after.label, after.state);
    deps.onEvent?.({ type: 'run', run: state.run });
    return state.run;
  };
  try {
    for (const agent of AGENTS) {
      const act = state.run.activities.find((a) => a.agent === agent)!;
      if (act.status === 'completed' && act.artifactId) continue;
      await runActivity(deps, state, save, agent);
      if (state.run.status !== 'running') return state.run;
    }
    await writeStage(deps, state, save);
    // Stage 'verify' (run params.verify): re-entered from the start when a run is resumed.
    if (state.run.status === 'completed') await verifyStage(deps, state, save);
    return state.run;
  } catch (e) {
    if (e instanceof CancelledError) return save((r) => { r.status = 'cancelled'; r.reason = 'cancelled by the user'; });
    await save((r) => { r.status = 'failed'; r.reason = `${errorKind(e)}: ${errorMessage(e)}`; });
    throw e;
  } finally {
    await release();
  }
}

type Save = (mut: (r: RunRecord) => void) => Promise<RunRecord>;

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
  // Step 7: the previous agent's output is loaded from the store by id, never passed in memory.
  const { artifact, contentText } = await deps.store.loadArtifact(run.id, prev.artifactId!);
  const params = agent === 'generator' ? { depth_level: run.params.depth } : { target_framework: run.params.framework };
  return { from_agent: from, artifact_id: artifact.id, payload: artifact.content, params, payloadCanonical: contentText };
}

async function runActivity(deps: PipelineDeps, state: { run: RunRecord }, save: Save, agent: AgentId): Promise<void> {
  const policy: BackoffPolicy = { ...DEFAULT_BACKOFF, ...deps.backoff };
  const { params } = state.run;
  const setAct = (mut: (a: ActivityRecord) => void) => save((r) => mut(r.activities.find((a) => a.agent === agent)!));
  await save((r) => { r.stage = agent; });

  let envelope: string;
  try {
    const { payloadCanonical, ...parts } = await payloadFor(deps, state.run, agent);
    envelope = buildEnvelope({ schema_version: '1', run_id: state.run.id, to_agent: agent, ...parts }, payloadCanonical);
  } catch (e) {
    if (e instanceof SchemaValidationError) return stopForReview(save, agent, e, 0);
    throw e;
  }
  const messages: ChatRequest['messages'] = [
    { role: 'system', content: systemPrompt(agent) },
    { role: 'user', content: envelope },
  ];
  const model = params.models[agent];
  const promptHash = sha256(canonicalJson(messages));
  const orphan = await deps.store.findUncommittedArtifact(state.run.id, ARTIFACT_KIND[agent], promptHash);
  if (orphan) {
    deps.onEvent?.({ type: 'log', level: 'info', message: `${agent}: adopting artifact ${orphan.id}, persisted before an interruption` });
    await setAct((a) => { a.status = 'completed'; a.artifactId = orphan.id; a.endedAt = new Date().toISOString(); });
    return;
  }
  let malformed = 0;
  let transport = 0;

  for (;;) {
    if (deps.signal?.aborted) throw new CancelledError();
    const attempt = state.run.activities.find((a) => a.agent === agent)!.attempts + 1;
    await setAct((a) => { a.status = 'running'; a.attempts = attempt; a.model = model; a.startedAt ??= new Date().toISOString(); });
    deps.onEvent?.({ type: 'activity', runId: state.run.id, agent, attempt });
    try {
      // Step 9: a brand-new session per attempt; it is dropped when this block ends.
      const session = deps.provider.openSession(agent);
      const reply = await session.complete({ agent, model, messages, temperature: params.temperature, top_p: 1, seed: params.seed, attempt, signal: deps.signal });
      const content = acceptReply(agent, reply.content);
      const artifact = await deps.store.putArtifact(state.run.id, ARTIFACT_KIND[agent], content, {
        sanitizer: SANITIZER_VERSION, provider: deps.provider.name, model: reply.model || model, seed: params.seed, temperature: params.temperature, promptHash, attempt,
      });
      crashPoint(`${agent}:persisted`);
      await setAct((a) => { a.status = 'completed'; a.artifactId = artifact.id; a.endedAt = new Date().toISOString(); });
      crashPoint(`${agent}:committed`);
      return;
    } catch (e) {
      if (e instanceof CancelledError) throw e;
      const err = {
        kind: errorKind(e), message: errorMessage(e), attempt, at: new Date().toISOString(),
        details: e instanceof SchemaValidationError ? e.errors : undefined,
        excerpt: e instanceof MalformedLlmOutput ? e.excerpt : undefined,
      };
      await setAct((a) => { a.errors.push(err); });
      if (e instanceof SchemaValidationError) return stopForReview(save, agent, e, attempt);
      if (e instanceof MalformedLlmOutput) {
        if (++malformed >= params.maxAttempts) return fail(save, agent, `${agent} gave malformed output ${malformed} times: ${e.message}`);
        deps.onEvent?.({ type: 'log', level: 'warn', message: `${agent}: ${e.message}; retrying in a new session` });
        continue;
      }
      if (e instanceof RateLimitError || e instanceof TransientLlmError) {
        if (++transport > policy.maxTransportRetries) return fail(save, agent, `${agent}: gave up after ${transport} retries: ${e.message}`);
        const delay = backoffDelay(e, transport, policy);
        deps.onEvent?.({ type: 'log', level: 'warn', message: `${agent}: ${e.message}; retrying in ${delay} ms` });
        await sleep(delay, deps.signal);
        continue;
      }
      if (e instanceof LlmConfigError || e instanceof AmtpError) return fail(save, agent, e.message);
      return fail(save, agent, `${agent} failed: ${errorMessage(e)}`);
    }
  }
}

async function stopForReview(save: Save, agent: AgentId, e: SchemaValidationError, attempt: number): Promise<void> {
  await save((r) => {
    const a = r.activities.find((x) => x.agent === agent)!;
    if (attempt === 0) a.errors.push({ kind: e.kind, message: e.message, attempt, at: new Date().toISOString(), details: e.errors });
    a.status = 'needs_review';
    r.status = 'needs_review';
    r.reason = e.message;
  });
}

async function fail(save: Save, agent: AgentId, reason: string): Promise<void> {
  await save((r) => {
    r.activities.find((x) => x.agent === agent)!.status = 'failed';
    r.status = 'failed';
    r.reason = reason;
  });
}
