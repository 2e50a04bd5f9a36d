import { selfContained } from '../contracts/selfContained';
import { OUTPUT_SCHEMA } from '../contracts/agentSchemas';
import type { AgentId } from '../core/agents';
import { CRAWLER_ROLE } from './crawler/prompt';
import { GENERATOR_ROLE } from './generator/prompt';
import { ENGINEER_ROLE } from './engineer/prompt';

const ROLE: Record<AgentId, string> = { crawler: CRAWLER_ROLE, generator: GENERATOR_ROLE, engineer: ENGINEER_ROLE };

const cache = new Map<AgentId, string>();

/** The static system prompt: the role, then the output schema the reply must satisfy. */
export function systemPrompt(agent: AgentId): string {
  let p = cache.get(agent);
  if (!p) {
    p = `${ROLE[agent]}\n\nOutput JSON Schema (Draft 2020-12):\n${JSON.stringify(selfContained(OUTPUT_SCHEMA[agent]))}`;
    cache.set(agent, p);
  }
  return p;
}
