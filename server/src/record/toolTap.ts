import { canonicalJson, sha256 } from '../core/canonical';
import type { CallTool, ToolResult } from '../core/toolCall';
import type { Recorder } from './recorder';
import type { Recording, RecordedEvent } from './recording';
import { ReplayDivergence, type ConsumedEvent } from './replayProvider';

const argsHash = (name: string, args: Record<string, unknown>) => sha256(canonicalJson({ name, args }));

/** Records each tool call and its return around the real MCP client. */
export function recordingTools(inner: CallTool, rec: Recorder): CallTool {
  return async (name, args) => {
    const args_hash = argsHash(name, args);
    const call = rec.event('tool_call', 'crawler', { name, args }, { tool: name, args_hash });
    const result = await inner(name, args);
    rec.event('tool_return', 'workspace', result, { tool: name, args_hash }, call);
    return result;
  };
}

/**
 * Answers tool calls from tool_return events, so a replay needs no workspace.
 * Calls with the same tool and arguments get the recorded returns in order.
 */
export function replayTools(recording: Recording, consumed: ConsumedEvent[], perturb?: (r: ToolResult) => ToolResult): CallTool {
  const queues = new Map<string, RecordedEvent[]>();
  for (const e of recording.events) {
    if (e.type !== 'tool_return') continue;
    queues.set(e.args_hash!, [...(queues.get(e.args_hash!) ?? []), e]);
  }
  return async (name, args) => {
    const key = argsHash(name, args);
    const next = queues.get(key)?.shift();
    if (!next)
      throw new ReplayDivergence(`replay diverged: tool call ${name} ${canonicalJson(args).slice(0, 200)} is not in the recording`, null);
    let result = structuredClone(recording.payloads.get(next.payload_ref)) as ToolResult;
    if (perturb) result = perturb(result);
    consumed.push({
      source_event_id: next.event_id,
      type: 'tool_return',
      agent: 'workspace',
      key,
      payload_hash: sha256(canonicalJson(result)).slice(0, 16),
    });
    return result;
  };
}
