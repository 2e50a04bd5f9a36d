import type { AgentId } from '../core/agents';
import { canonicalJson, canonicalJsonWithRaw } from '../core/canonical';
import type { Depth, FrameworkChoice } from '../core/frameworks';
import type { RunLesson } from '../core/run';
import { INPUT_SCHEMA, type AgentInputs } from './agentSchemas';
import type { SchemaName } from './schemas';
import { requireValid } from './validate';

/** The canonical message that opens a session (schemas/handoff-envelope.schema.json), with its payload's type. */
export interface HandoffEnvelope<P extends object = Record<string, unknown>> {
  schema_version: '1';
  run_id: string;
  from_agent: 'orchestrator' | 'verifier' | AgentId;
  to_agent: AgentId;
  artifact_id: string | null;
  payload: P;
  /** which batch of the agent's work this session does */
  batch?: { index: number; count: number; part?: string };
  params: { depth_level?: Depth; target_framework?: FrameworkChoice };
  /** lessons about this batch's code from earlier runs (pipeline/lessons.ts): data, never instructions */
  lessons?: RunLesson[];
}

/** An envelope addressed to agent `A`, its payload validated against that agent's input contract. */
export type AgentEnvelope<A extends AgentId> = HandoffEnvelope<AgentInputs[A]> & { to_agent: A };

/**
 * Steps 7–8: the payload is re-validated against the receiving agent's input
 * schema, the envelope against its own, and the result is RFC 8785 JSON, so the
 * same inputs always give the same bytes (and the same prompt hash).
 */
export function buildEnvelope(
  env: HandoffEnvelope<object>,
  payloadCanonical?: string,
  inputSchema: SchemaName = INPUT_SCHEMA[env.to_agent],
): string {
  requireValid(inputSchema, env.payload, `${env.to_agent} input`);
  requireValid('handoff-envelope', env, 'handoff envelope');
  // The payload's canonical text comes verified from the artifact store when available.
  return payloadCanonical === undefined ? canonicalJson(env) : canonicalJsonWithRaw({ ...env }, 'payload', payloadCanonical);
}

export function parseEnvelope(text: string): HandoffEnvelope {
  const env: unknown = JSON.parse(text);
  requireValid('handoff-envelope', env, 'handoff envelope');
  return env as HandoffEnvelope; // the schema's payload is `object`; callers that need its type use parseEnvelopeFor
}

/** The envelope of a session with `agent`: addressed to it, its payload valid against the agent's input contract. */
export function parseEnvelopeFor<A extends AgentId>(agent: A, text: string): AgentEnvelope<A> {
  const env = parseEnvelope(text);
  if (env.to_agent !== agent) throw new Error(`${agent} got an envelope for ${env.to_agent}`);
  const payload: unknown = env.payload;
  requireValid(INPUT_SCHEMA[agent], payload, `${agent} input`);
  // INPUT_SCHEMA[A] describes AgentInputs[A]; TypeScript cannot correlate the two maps itself.
  return { ...env, to_agent: agent, payload: payload as AgentInputs[A] };
}
