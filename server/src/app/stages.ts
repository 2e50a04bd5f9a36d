// The standard run: the three agents in bounded batches (with the characterize stage running the
// undocumented functions before the engineer writes tests), then writing the files, verifying them,
// and (when the run asked for it) a branch with one commit of the kept files.
import { BATCHINGS } from '../agents/batchings';
import { characterizeStage } from '../characterize/stage';
import { branchStage } from '../git/stage';
import { batchedAgentStage } from '../pipeline/batchStage';
import { emptyPlanStage } from '../pipeline/emptyPlan';
import type { Stage } from '../pipeline/stage';
import { writeStage } from '../pipeline/writeStage';
import { verifyStage } from '../verifier/stage';
import { mergeTestFile } from '../verifier/testMerge';

export function standardStages(): Stage[] {
  return [
    batchedAgentStage('crawler', BATCHINGS.crawler),
    batchedAgentStage('generator', BATCHINGS.generator),
    emptyPlanStage,
    characterizeStage,
    batchedAgentStage('engineer', BATCHINGS.engineer),
    writeStage(mergeTestFile),
    verifyStage,
    branchStage,
  ];
}
