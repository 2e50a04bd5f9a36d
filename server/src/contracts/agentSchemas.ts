import type { AgentId } from '../core/agents';
import type { SchemaName } from './schemas';

/** What each agent must reply with. */
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
