import type { OfflineEngines } from '../llm/offlineProvider';
import { offlineCrawler } from './crawler/offline';
import { engineerBodies } from './engineer/offlineBodies';
import { generateCases } from './generator/offline';

/** The deterministic built-in agents, each reading only its batch's envelope. */
export const OFFLINE_ENGINES: OfflineEngines = {
  crawler: () => offlineCrawler(),
  generator: (env) => {
    const { cases, not_planned } = generateCases(env.payload, env.params.depth_level ?? 'standard');
    return { schema_version: '1', cases, ...(not_planned ? { not_planned } : {}) };
  },
  engineer: (env) => engineerBodies(env.payload),
};
