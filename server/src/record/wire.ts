import * as path from 'node:path';
import { crawlWorkspace } from '../agents/crawler/staticMap';
import type { PipelineDeps } from '../pipeline/deps';
import type { RunParams } from '../core/run';
import { Recorder } from './recorder';
import { RecordingProvider } from './recordingProvider';
import { recordingTools } from './toolTap';
import { recordingTests } from './testTap';
import { recordingChars } from './charTap';

/**
 * Pipeline wiring that records every LLM request/reply (repair and round sessions included), tool
 * call/return, characterization run, test run, verifier file write and state transition of one run to `file`,
 * with the given secrets redacted.
 */
export function recordedDeps(
  deps: PipelineDeps,
  params: RunParams,
  runId: string,
  file: string,
  secrets: string[],
): { deps: PipelineDeps; recorder: Recorder } {
  const recorder = new Recorder(file, secrets.filter(Boolean));
  recorder.header({ run_id: runId, workspace_name: path.basename(deps.workspace), params });
  const tap = (inner: Parameters<typeof recordingTools>[0]) => recordingTools(inner, recorder);
  return {
    recorder,
    deps: {
      ...deps,
      provider: new RecordingProvider(deps.provider, recorder),
      crawl: async (w) => (await crawlWorkspace(w, { tap })).map,
      recorder,
      tests: recordingTests(recorder),
      charRuns: recordingChars(recorder),
    },
  };
}
