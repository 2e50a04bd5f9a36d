// The stage interface: a run is a list of stages (crawler, generator, engineer, write, verify, …)
// that the orchestrator calls in order with one context. A stage reads and updates the run only
// through `save`, and acts on the workspace only through `gateway`.
import type { RunRecord } from '../core/run';
import type { Gateway } from '../gateway/gateway';
import type { PipelineDeps } from './deps';

/** Applies a change to a copy of the run record and persists it (optimistic versioning). */
export type Save = (mut: (r: RunRecord) => void) => Promise<RunRecord>;

export interface StageContext {
  deps: PipelineDeps;
  /** the latest saved run record */
  state: { run: RunRecord };
  save: Save;
  /** the run's one gateway: risk policy, approvals and audit rows */
  gateway: Gateway;
}

/**
 * Does its part of the run, or nothing when that part is already done (stages are re-entered on
 * resume). It stops the run by setting a status other than running/completed.
 */
export type Stage = (ctx: StageContext) => Promise<void>;
