// Characterization's contact with the workspace (PipelineDeps.charRuns), recorded and replayed like
// the verifier's test runs (testTap.ts): each module's sandbox run is a `char.run` tool call (the
// module's workspace-relative path and its targets) and its return is what the sandbox observed,
// with the workspace folder written as `<workspace>` so the recording holds no path of this machine.
// A replay answers from the recording and runs no code.
import { canonicalJson, sha256 } from '../core/canonical';
import type { CharRunAccess } from '../pipeline/deps';
import type { Recorder } from './recorder';
import type { RecordedEvent, Recording } from './recording';
import { ReplayDivergence, type ConsumedEvent } from './replayProvider';

const TOOL = 'char.run';
const PLACEHOLDER = '<workspace>';

const argsHash = (args: unknown) => sha256(canonicalJson({ name: TOOL, args }));

/** `value` with the workspace folder replaced by `to` in every string (JSON text, so nested values too). */
function swapRoot<T>(value: T, from: string, to: string): T {
  const esc = (s: string) => JSON.stringify(s).slice(1, -1);
  return JSON.parse(JSON.stringify(value).split(esc(from)).join(esc(to))) as T;
}

export function recordingChars(rec: Recorder): CharRunAccess {
  return {
    async run(key, root, exec) {
      const args_hash = argsHash(key);
      const call = rec.event('tool_call', 'orchestrator', { name: TOOL, args: key }, { tool: TOOL, args_hash });
      const result = await exec();
      rec.event('tool_return', 'workspace', swapRoot(result, root, PLACEHOLDER), { tool: TOOL, args_hash }, call);
      return result;
    },
  };
}

export function replayChars(recording: Recording, consumed: ConsumedEvent[]): CharRunAccess {
  const returns = new Map<string, RecordedEvent[]>();
  for (const e of recording.events)
    if (e.type === 'tool_return' && e.tool === TOOL) returns.set(e.args_hash!, [...(returns.get(e.args_hash!) ?? []), e]);
  return {
    async run<T>(key: { module: string; targets: unknown }, root: string): Promise<T> {
      const hash = argsHash(key);
      const e = returns.get(hash)?.shift();
      if (!e) throw new ReplayDivergence(`replay diverged: ${TOOL} of ${key.module} is not in the recording`, null);
      consumed.push({ source_event_id: e.event_id, type: 'tool_return', agent: 'workspace', key: hash, payload_hash: e.payload_hash });
      return swapRoot(structuredClone(recording.payloads.get(e.payload_ref)) as T, PLACEHOLDER, root);
    },
  };
}
