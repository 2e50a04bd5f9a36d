// What each agent takes and gives, as schema names (validated by ajv) and as types (generated from
// the same schemas), so a value that passed validation can be used with its type and no cast.
//
// An agent works in batches (pipeline/batchStage.ts): each batch's envelope carries an input view
// (AgentInputs) and its reply is a batch output (AgentOutputs); AMTP merges the batch outputs into
// the agent's result (AgentResults), the artifact the next agent's batches are cut from.
import type { AgentId, ArtifactKind } from '../core/agents';
import type { SchemaName } from './schemas';
import type {
  CasePlan,
  Characterization,
  CrawlerOutput,
  CrawlerPatch,
  EngineerInput,
  EngineerOutput,
  RepairOutput,
  TestBodies,
  TestCases,
} from './types';

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

export interface AgentInputs {
  crawler: CrawlerOutput;
  generator: CrawlerOutput;
  engineer: EngineerInput;
}

export interface AgentOutputs {
  crawler: CrawlerPatch;
  generator: CasePlan;
  engineer: TestBodies;
}

export interface AgentResults {
  crawler: CrawlerOutput;
  generator: TestCases;
  engineer: EngineerOutput;
}

/** The content type of each kind of persisted artifact. */
export interface ArtifactContents {
  crawler_output: CrawlerOutput;
  generator_output: TestCases;
  engineer_output: EngineerOutput;
  repair_output: RepairOutput;
  crawler_batch: CrawlerPatch;
  generator_batch: CasePlan;
  engineer_batch: TestBodies;
  static_map: CrawlerOutput;
  characterization: Characterization;
}

export type ContentOf<K extends ArtifactKind> = ArtifactContents[K];
