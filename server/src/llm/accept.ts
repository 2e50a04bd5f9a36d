// Steps 2–4 of every agent boundary: sanitize, parse, validate against the reply's schema (a reply
// over the byte cap is refused before any of them).
import { SchemaValidationError } from '../core/errors';
import type { AgentId } from '../core/agents';
import { OUTPUT_SCHEMA, type AgentOutputs } from '../contracts/agentSchemas';
import type { SchemaTypes } from '../contracts/schemaTypes';
import type { SchemaName } from '../contracts/schemas';
import { requireValid } from '../contracts/validate';
import { MalformedLlmOutput } from './errors';
import { checkReplySize } from './replyLimits';
import { sanitize } from './sanitize';

/** A reply as the value its schema describes: MalformedLlmOutput (retried) or SchemaValidationError (needs review) otherwise. */
export function acceptAs<S extends SchemaName>(schema: S, who: string, raw: string): SchemaTypes[S] {
  checkReplySize(who, raw);
  const text = sanitize(raw);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new MalformedLlmOutput(`${who} reply is not JSON after sanitizing: ${(e as Error).message}`, text.slice(0, 200));
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new SchemaValidationError(`${who} reply is JSON but not an object`, schema, [
      { path: '/', message: 'must be object', keyword: 'type' },
    ]);
  }
  requireValid(schema, parsed, `${who} output`);
  return parsed;
}

/** An agent's batch reply. */
export function acceptReply<A extends AgentId>(agent: A, raw: string): AgentOutputs[A] {
  // OUTPUT_SCHEMA[A] describes AgentOutputs[A]; TypeScript cannot correlate the two maps itself.
  return acceptAs(OUTPUT_SCHEMA[agent], agent, raw) as AgentOutputs[A];
}
