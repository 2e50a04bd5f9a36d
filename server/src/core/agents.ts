/** The three agents, in pipeline order. */
export const AGENTS = ['crawler', 'generator', 'engineer'] as const;
export type AgentId = (typeof AGENTS)[number];

export type ArtifactKind =
  | 'crawler_output'
  | 'generator_output'
  | 'engineer_output'
  | 'repair_output'
  | 'crawler_batch'
  | 'generator_batch'
  | 'engineer_batch'
  | 'static_map'
  /** what running the code pinned (server/src/characterize/stage.ts): one module's, or the run's merged */
  | 'characterization'
  /** one batch of a coverage round's new tests (server/src/verifier/rounds.ts) */
  | 'round_batch';

export const ARTIFACT_KIND = {
  crawler: 'crawler_output',
  generator: 'generator_output',
  engineer: 'engineer_output',
} as const satisfies Record<AgentId, ArtifactKind>;

/** The kind of one batch's output, per agent. */
export const BATCH_KIND = {
  crawler: 'crawler_batch',
  generator: 'generator_batch',
  engineer: 'engineer_batch',
} as const satisfies Record<AgentId, ArtifactKind>;
