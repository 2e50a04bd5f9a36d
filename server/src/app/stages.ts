// The standard run: the three agents, then writing the files, verifying them, and (when the run
// asked for it) a branch with one commit of the kept files.
import { AGENTS } from '../core/agents';
import { branchStage } from '../git/stage';
import { agentStage } from '../pipeline/agentStage';
import type { Stage } from '../pipeline/stage';
import { writeStage } from '../pipeline/writeStage';
import { verifyStage } from '../verifier/stage';

export function standardStages(): Stage[] {
  return [...AGENTS.map(agentStage), writeStage, verifyStage, branchStage];
}
