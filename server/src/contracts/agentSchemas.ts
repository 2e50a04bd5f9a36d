// What each agent takes and gives, as schema names (validated by ajv) and as types (generated from
// the same schemas), so a value that passed validation can be used with its type and no cast.
import type { AgentId, ArtifactKind } from '../core/agents';
import type { SchemaName } from './schemas';
import type { CrawlerOutput, EngineerOutput, RepairOutput, TestCases } from './types';

/** What each agent must reply with. */
export const OUTPUT_SCHEMA = {
  crawler: 'crawler-output',
  generator: 'test-cases',
  engineer: 'engineer-output',
} as const satisfies Record<AgentId, SchemaName>;

/** What each agent accepts as its envelope payload: the previous agent's contract. */
export const INPUT_SCHEMA = {
  crawler: 'crawler-output', // the static map, which the crawler enriches
  generator: 'crawler-output',
  engineer: 'test-cases',
} as const satisfies Record<AgentId, SchemaName>;

export interface AgentOutputs {
  crawler: CrawlerOutput;
  generator: TestCases;
  engineer: EngineerOutput;
}

export interface AgentInputs {
  crawler: CrawlerOutput;
  generator: CrawlerOutput;
  engineer: TestCases;
}

/** The content type of each kind of persisted artifact. */
export interface ArtifactContents {
  crawler_output: CrawlerOutput;
  generator_output: TestCases;
  engineer_output: EngineerOutput;
  repair_output: RepairOutput;
}

export type ContentOf<K extends ArtifactKind> = ArtifactContents[K];
