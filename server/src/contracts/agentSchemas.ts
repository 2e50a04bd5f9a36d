// What each agent takes and gives, as schema names (validated by ajv) and as types (generated from
// the same schemas), so a value that passed validation can be used with its type and no cast.
//
// An agent works in batches (pipeline/batchStage.ts): each batch's envelope carries an input view
// (AgentInputs) and its reply is a batch output (AgentOutputs); AMTP merges the batch outputs into
// the agent's result (AgentResults), the artifact the next agent's batches are cut from.
import type { AgentId } from '../core/agents';
import type { SchemaName } from './schemas';
import type { SchemaTypes } from './schemaTypes';

/** What each agent's batch reply must satisfy. */
export const OUTPUT_SCHEMA = {
  crawler: 'crawler-patch',
  generator: 'case-plan',
  engineer: 'test-bodies',
} as const satisfies Record<AgentId, SchemaName>;

/** What each agent's batch envelope payload satisfies: a view of the previous agent's result. */
export const INPUT_SCHEMA = {
  crawler: 'crawler-output', // a view of the static map, which the crawler corrects and extends
  generator: 'crawler-output',
  engineer: 'engineer-input',
} as const satisfies Record<AgentId, SchemaName>;

/** What each agent's merged result satisfies. */
export const RESULT_SCHEMA = {
  crawler: 'crawler-output',
  generator: 'test-cases',
  engineer: 'engineer-output',
} as const satisfies Record<AgentId, SchemaName>;

/** The type of each agent's batch envelope payload, batch reply and merged result: the schemas' types. */
export type AgentInputs = { [A in AgentId]: SchemaTypes[(typeof INPUT_SCHEMA)[A]] };
export type AgentOutputs = { [A in AgentId]: SchemaTypes[(typeof OUTPUT_SCHEMA)[A]] };
export type AgentResults = { [A in AgentId]: SchemaTypes[(typeof RESULT_SCHEMA)[A]] };
