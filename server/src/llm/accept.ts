// Steps 2–4 of every agent boundary: sanitize, parse, validate against the agent's output schema.
import type { AgentId } from '../core/agents';
import { SchemaValidationError } from '../core/errors';
import { OUTPUT_SCHEMA, type AgentOutputs } from '../contracts/agentSchemas';
import { requireValid } from '../contracts/validate';
import { MalformedLlmOutput } from './errors';
import { sanitize } from './sanitize';

export function acceptReply<A extends AgentId>(agent: A, raw: string): AgentOutputs[A] {
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
  // OUTPUT_SCHEMA[A] describes AgentOutputs[A]; TypeScript cannot correlate the two maps itself.
  return parsed as AgentOutputs[A];
}
