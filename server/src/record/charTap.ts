// Characterization's contact with the workspace (PipelineDeps.charRuns), recorded and replayed like
// the verifier's test runs (testTap.ts): each module's sandbox run is a `char.run` tool call (the
// module's workspace-relative path and its targets) and its return is what the sandbox observed
// (keyedTap.ts). A replay answers from the recording and runs no code.
import type { CharRunAccess } from '../pipeline/deps';
import type { Recorder } from './recorder';
import type { Recording } from './recording';
import type { ConsumedEvent } from './replayProvider';
import { recordingKeyed, replayKeyed } from './keyedTap';

const TOOL = 'char.run';

export function recordingChars(rec: Recorder): CharRunAccess {
  return { run: recordingKeyed(rec, TOOL, 'orchestrator') };
}

export function replayChars(recording: Recording, consumed: ConsumedEvent[]): CharRunAccess {
  return { run: replayKeyed(recording, consumed, TOOL, (key: { module: string }) => key.module) };
}
