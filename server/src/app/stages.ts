// The standard run: the three agents, then writing the files, then verifying them.
import { AGENTS } from '../core/agents';
import { agentStage } from '../pipeline/agentStage';
import type { Stage } from '../pipeline/stage';
import { writeStage } from '../pipeline/writeStage';
import { verifyStage } from '../verifier/stage';

export function standardStages(): Stage[] {
  return [...AGENTS.map(agentStage), writeStage, verifyStage];
}
