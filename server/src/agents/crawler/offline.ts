import type { CrawlerPatch } from '../../contracts/types';

/**
 * The offline crawler's "model" step: the static analysis already did the real work through the
 * MCP tools, so it has nothing to correct in its view: an empty patch.
 */
export function offlineCrawler(): CrawlerPatch {
  return { schema_version: '1', patch: [] };
}
