// The standard run: the three agents in bounded batches (with the characterize stage running the
// undocumented functions before the engineer writes tests, and the person's earlier per-test decisions applied), then writing the files, verifying them,
// and (when the run asked for it) a branch with one commit of the kept files.
import { BATCHINGS } from '../agents/batchings';
import { characterizeStage } from '../characterize/stage';
import { branchStage } from '../git/stage';
import { batchedAgentStage } from '../pipeline/batchStage';
import { decisionStage, type FindCaseIds } from '../pipeline/decisionStage';
import { confidenceStage } from '../pipeline/confidenceStage';
import { emptyPlanStage } from '../pipeline/emptyPlan';
import type { Stage } from '../pipeline/stage';
import { writeStage } from '../pipeline/writeStage';
import { verifyStage } from '../verifier/stage';
import { findTests } from '../verifier/testFile';
import { mergeGuarded } from '../verifier/acceptedMerge';

/** The case ids of the tests in a test file, on its syntax tree: how a run finds tests deleted by hand. */
const caseIdsInTestFile: FindCaseIds = (path, content) => findTests(path, content).map((b) => b.caseId);

/** What every live run is wired with: the standard stages, and how to find tests deleted by hand. */
export function standardRun(): { stages: Stage[]; caseIdsIn: FindCaseIds } {
  return { stages: standardStages(), caseIdsIn: caseIdsInTestFile };
}

export function standardStages(): Stage[] {
  return [
    batchedAgentStage('crawler', BATCHINGS.crawler),
    batchedAgentStage('generator', BATCHINGS.generator),
    emptyPlanStage,
    characterizeStage,
    decisionStage,
    batchedAgentStage('engineer', BATCHINGS.engineer),
    writeStage(mergeGuarded),
    verifyStage,
    confidenceStage,
    branchStage,
  ];
}
