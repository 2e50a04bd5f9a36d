// How each agent's work is cut into batches and put back together. The pipeline (pipeline/batchStage.ts)
// runs the batches; these functions are pure: the same source and budget give the same batches.
import type { AgentId } from '../core/agents';
import type { Depth, FrameworkChoice } from '../core/frameworks';
import type { AgentInputs, AgentOutputs, AgentResults } from '../contracts/agentSchemas';
import type { CrawlerOutput, TestCases } from '../contracts/types';
import type { Budget } from './budget';

/** What an agent's batches are cut from: the static map, the merged map, the merged plan. */
export interface AgentSources {
  crawler: CrawlerOutput;
  generator: CrawlerOutput;
  /** the plan, and the map the symbols' signatures, docs and source come from */
  engineer: { plan: TestCases; map: CrawlerOutput };
}

export interface PlanContext {
  budget: Budget;
  depth: Depth;
  framework: FrameworkChoice;
  /** with the run's `intoExisting`: whether the person's own test file at this workspace-relative path exists */
  ownTestFile?: (path: string) => boolean;
}

export interface PlannedBatch<A extends AgentId> {
  /** what the batch covers (module paths), stable for the same source */
  key: string;
  payload: AgentInputs[A];
}

/** A finished batch: what it was sent and what it answered. */
export interface DoneBatch<A extends AgentId> {
  payload: AgentInputs[A];
  output: AgentOutputs[A];
}

export interface AgentBatching<A extends AgentId> {
  plan(source: AgentSources[A], ctx: PlanContext): PlannedBatch<A>[];
  /**
   * A batch's work in two halves, for a batch whose reply did not fit the output bound; undefined
   * when it cannot be cut further (one symbol, one case). Pure: the same payload, the same halves.
   */
  split(payload: AgentInputs[A]): [AgentInputs[A], AgentInputs[A]] | undefined;
  /** why a reply that fits its schema does not fit its batch (a patch that does not apply), or undefined */
  check?(payload: AgentInputs[A], output: AgentOutputs[A]): string | undefined;
  /** the agent's result, from every batch in batch order (a split batch's halves in its place) */
  merge(source: AgentSources[A], done: DoneBatch<A>[], ctx: PlanContext): AgentResults[A];
}

export type Batchings = { [A in AgentId]: AgentBatching<A> };
