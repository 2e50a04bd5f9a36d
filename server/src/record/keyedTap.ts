// A workspace run that is recorded and replayed whole, keyed by what identifies it on any machine
// (characterization's sandbox runs, charTap.ts; the mutation engine's runs, testTap.ts): the call is
// a tool_call of `tool` with the key as its args, and its return is what the run gave, with the
// workspace folder written as `<workspace>` so the recording holds no path of this machine. A replay
// answers from the recording, in recorded order per key, and runs no code.
import { canonicalJson, sha256 } from '../core/canonical';
import type { RecordedAgent, Recorder } from './recorder';
import type { RecordedEvent, Recording } from './recording';
import { ReplayDivergence, type ConsumedEvent } from './replayProvider';

const PLACEHOLDER = '<workspace>';

export type KeyedRun = <T>(key: unknown, root: string, exec: () => Promise<T>) => Promise<T>;

const argsHash = (tool: string, args: unknown) => sha256(canonicalJson({ name: tool, args }));

/** `value` with the workspace folder replaced by `to` in every string (JSON text, so nested values too). */
function swapRoot<T>(value: T, from: string, to: string): T {
  const esc = (s: string) => JSON.stringify(s).slice(1, -1);
  return JSON.parse(JSON.stringify(value).split(esc(from)).join(esc(to))) as T;
}

/** @param caller who makes the call: the orchestrator (characterization) or the verifier (mutation) */
export function recordingKeyed(rec: Recorder, tool: string, caller: RecordedAgent): KeyedRun {
  return async (key, root, exec) => {
    const args_hash = argsHash(tool, key);
    const call = rec.event('tool_call', caller, { name: tool, args: key }, { tool, args_hash });
    const result = await exec();
    rec.event('tool_return', 'workspace', swapRoot(result, root, PLACEHOLDER), { tool, args_hash }, call);
    return result;
  };
}

/** @param what names the run in a divergence message */
export function replayKeyed(recording: Recording, consumed: ConsumedEvent[], tool: string, what: (key: never) => string): KeyedRun {
  const returns = new Map<string, RecordedEvent[]>();
  for (const e of recording.events)
    if (e.type === 'tool_return' && e.tool === tool) returns.set(e.args_hash!, [...(returns.get(e.args_hash!) ?? []), e]);
  return async <T>(key: unknown, root: string): Promise<T> => {
    const hash = argsHash(tool, key);
    const e = returns.get(hash)?.shift();
    if (!e) throw new ReplayDivergence(`replay diverged: ${tool} of ${what(key as never)} is not in the recording`, null);
    consumed.push({ source_event_id: e.event_id, type: 'tool_return', agent: 'workspace', key: hash, payload_hash: e.payload_hash });
    return swapRoot(structuredClone(recording.payloads.get(e.payload_ref)) as T, PLACEHOLDER, root);
  };
}
