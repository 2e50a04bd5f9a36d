import type { OfflineAgent } from '../llm/offlineProvider';
import type { AgentId } from '../core/agents';
import type { Depth, FrameworkChoice } from '../core/frameworks';
import type { CrawlerOutput, TestCases } from '../contracts/types';
import { offlineCrawler } from './crawler/offline';
import { generateCases } from './generator/offline';
import { engineerTests } from './engineer/offline';

/** The deterministic built-in agents, each reading only its envelope. */
export const OFFLINE_ENGINES: Record<AgentId, OfflineAgent> = {
  crawler: offlineCrawler,
  generator: (env) => generateCases(env.payload as unknown as CrawlerOutput, (env.params.depth_level ?? 'standard') as Depth),
  engineer: (env) => engineerTests(env.payload as unknown as TestCases, (env.params.target_framework ?? 'auto') as FrameworkChoice),
};
