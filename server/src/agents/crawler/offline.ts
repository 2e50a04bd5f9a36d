import type { CrawlerOutput } from '../../contracts/types';
import type { AgentEnvelope } from '../../contracts/envelope';

/**
 * The offline crawler's "model" step: the static analysis already did the real
 * work through the MCP tools, so it returns the map it was given, minus the raw
 * samples (they exist to let a model enrich the map; the map is the contract).
 */
export function offlineCrawler(env: AgentEnvelope<'crawler'>): CrawlerOutput {
  const { samples: _samples, ...map } = env.payload;
  return map;
}
