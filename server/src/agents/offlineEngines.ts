import type { OfflineEngines } from '../llm/offlineProvider';
import { offlineCrawler } from './crawler/offline';
import { engineerTests } from './engineer/offline';
import { generateCases } from './generator/offline';

/** The deterministic built-in agents, each reading only its envelope. */
export const OFFLINE_ENGINES: OfflineEngines = {
  crawler: offlineCrawler,
  generator: (env) => generateCases(env.payload, env.params.depth_level ?? 'standard'),
  engineer: (env) => engineerTests(env.payload, env.params.target_framework ?? 'auto'),
};
