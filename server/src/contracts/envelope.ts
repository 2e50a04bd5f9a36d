import type { AgentId } from '../core/agents';
import { canonicalJson, canonicalJsonWithRaw } from '../core/canonical';
import type { Depth, FrameworkChoice } from '../core/frameworks';
import { INPUT_SCHEMA } from './agentSchemas';
import { requireValid } from './validate';

export interface HandoffEnvelope {
  schema_version: '1';
  run_id: string;
  from_agent: 'orchestrator' | 'verifier' | AgentId;
  to_agent: AgentId;
  artifact_id: string | null;
  payload: Record<string, unknown>;
  params: { depth_level?: Depth; target_framework?: FrameworkChoice };
}

/**
 * Steps 7–8: the payload is re-validated against the receiving agent's input
 * schema, the envelope against its own, and the result is RFC 8785 JSON, so the
 * same inputs always give the same bytes (and the same prompt hash).
 */
export function buildEnvelope(env: HandoffEnvelope, payloadCanonical?: string): string {
  requireValid(INPUT_SCHEMA[env.to_agent], env.payload, `${env.to_agent} input`);
  requireValid('handoff-envelope', env, 'handoff envelope');
  // The payload's canonical text comes verified from the artifact store when available.
  return payloadCanonical === undefined ? canonicalJson(env) : canonicalJsonWithRaw(env as unknown as Record<string, unknown>, 'payload', payloadCanonical);
}

export function parseEnvelope(text: string): HandoffEnvelope {
  const env = JSON.parse(text) as HandoffEnvelope;
  requireValid('handoff-envelope', env, 'handoff envelope');
  return env;
}
