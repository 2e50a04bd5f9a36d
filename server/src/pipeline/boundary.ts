import { validate, formatContractErrors, type ContractError } from '../contracts/validate';
import type { SchemaName } from '../contracts/schemas';
import { MalformedLlmOutput, SchemaValidationError } from '../llm/errors';
import { sanitize } from '../llm/sanitize';
import type { AgentId } from './types';

export const OUTPUT_SCHEMA: Record<AgentId, SchemaName> = {
  crawler: 'crawler-output',
  generator: 'test-cases',
  engineer: 'engineer-output',
};

/** What each agent accepts as its envelope payload: the previous agent's contract. */
export const INPUT_SCHEMA: Record<AgentId, SchemaName> = {
  crawler: 'crawler-output', // the static map, which the crawler enriches
  generator: 'crawler-output',
  engineer: 'test-cases',
};

/** Steps 2–4 of the boundary: sanitize, parse, validate against the agent's output schema. */
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

export function requireValid(schema: SchemaName, value: unknown, what: string): void {
  const result = validate(schema, value);
  if (!result.ok) throw new SchemaValidationError(`${what} violates ${schema}: ${formatContractErrors(result.errors)}`, schema, result.errors as ContractError[]);
}
