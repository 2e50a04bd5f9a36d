// The offline Test Engineer as the pipeline runs it, without the stage around it: the plan cut
// into batches at the default budget, each batch's bodies written by the offline engine, the
// result assembled by AMTP from all of them.
import { engineerBatching } from '../../server/src/agents/engineer/batches';
import { engineerBodies } from '../../server/src/agents/engineer/offlineBodies';
import type { CrawlerOutput, EngineerOutput, TestCases } from '../../server/src/contracts/types';
import type { FrameworkChoice } from '../../server/src/core/frameworks';
import { DEFAULT_BATCHING } from '../../server/src/core/run';

const NO_MAP = { key_files: [], samples: [] } as unknown as CrawlerOutput;

export function engineerTests(plan: TestCases, framework: FrameworkChoice, map: CrawlerOutput = NO_MAP): EngineerOutput {
  const ctx = {
    budget: { payloadTokens: DEFAULT_BATCHING.inputTokens - 1500, outputTokens: DEFAULT_BATCHING.outputTokens },
    depth: 'standard' as const,
    framework,
  };
  const batches = engineerBatching.plan({ plan, map }, ctx);
  const done = batches.map((b) => ({ payload: b.payload, output: engineerBodies(b.payload) }));
  return engineerBatching.merge({ plan, map }, done, ctx);
}
