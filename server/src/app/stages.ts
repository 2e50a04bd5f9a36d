// The standard run: the three agents in bounded batches (with the characterize stage running the
// undocumented functions before the engineer writes tests, and the person's earlier per-test decisions applied), then writing the files, verifying them,
// and (when the run asked for it) a branch with one commit of the kept files.
import { BATCHINGS } from '../agents/batchings';
import { characterizeStage } from '../characterize/stage';
import { branchStage } from '../git/stage';
import { batchedAgentStage } from '../pipeline/batchStage';
import { decisionStage } from '../pipeline/decisionStage';
import type { FindTests } from '../pipeline/keptTests';
import { confidenceStage } from '../pipeline/confidenceStage';
import { emptyPlanStage } from '../pipeline/emptyPlan';
import type { Stage } from '../pipeline/stage';
import { writeStage } from '../pipeline/writeStage';
import { verifyStage } from '../verifier/stage';
import { findTests } from '../verifier/testFile';
import { mergeGuarded } from '../verifier/acceptedMerge';

/** The tests in a test file with their text, on its syntax tree: how a run finds tests deleted or changed by hand. */
const testsInTestFile: FindTests = (path, content) =>
  findTests(path, content).map((b) => ({ caseId: b.caseId, text: content.slice(b.start, b.end) }));

/** What every live run is wired with: the standard stages, and how to find tests deleted or changed by hand. */
export function standardRun(): { stages: Stage[]; testsIn: FindTests } {
  return { stages: standardStages(), testsIn: testsInTestFile };
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
