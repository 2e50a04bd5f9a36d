// Steps 2–4 of every agent boundary: sanitize, parse, validate against the agent's output schema.
import type { AgentId } from '../core/agents';
import { SchemaValidationError } from '../core/errors';
import { OUTPUT_SCHEMA } from '../contracts/agentSchemas';
import { requireValid } from '../contracts/validate';
import { MalformedLlmOutput } from './errors';
import { sanitize } from './sanitize';

export function acceptReply(agent: AgentId, raw: string): Record<string, unknown> {
  const text = sanitize(raw);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new MalformedLlmOutput(`${agent} reply is not JSON after sanitizing: ${(e as Error).message}`, text.slice(0, 200));
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new SchemaValidationError(`${agent} reply is JSON but not an object`, OUTPUT_SCHEMA[agent], [
      { path: '/', message: 'must be object', keyword: 'type' },
    ]);
  }
  requireValid(OUTPUT_SCHEMA[agent], parsed, `${agent} output`);
  return parsed as Record<string, unknown>;
}
