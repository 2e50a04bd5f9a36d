/** The three agents, in pipeline order. */
export const AGENTS = ['crawler', 'generator', 'engineer'] as const;
export type AgentId = (typeof AGENTS)[number];

export const ARTIFACT_KINDS = ['crawler_output', 'generator_output', 'engineer_output', 'repair_output'] as const;
export type ArtifactKind = (typeof ARTIFACT_KINDS)[number];

export const ARTIFACT_KIND = {
  crawler: 'crawler_output',
  generator: 'generator_output',
  engineer: 'engineer_output',
} as const satisfies Record<AgentId, ArtifactKind>;
