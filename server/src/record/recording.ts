import { promises as fsp } from 'node:fs';
import { formatContractErrors, validate } from '../contracts/validate';
import { canonicalJson, sha256 } from '../core/canonical';
import type { Depth, FrameworkChoice } from '../core/frameworks';
import type { BatchParams, RunDecided, RunLesson, VerifyParams } from '../core/run';
import type { RunScope } from '../core/scope';
import type { RecordedUsage } from './recordingProvider';

interface RecordingHeader {
  type: 'header';
  format: 'amtp-recording';
  /** 2: batches (server/src/pipeline/batchStage.ts); 3: the verifier's test runs, repairs and rewrites too (testTap.ts) */
  format_version: 2 | 3;
  sanitizer: string;
  schemas: Record<string, string>;
  run: {
    run_id: string;
    workspace_name: string;
    depth: Depth;
    framework: FrameworkChoice;
    provider: string;
    models: Record<string, string>;
    seed: number;
    temperature: number;
    max_attempts: number;
    /** format_version 2: the budgets the batches were cut with */
    batching?: BatchParams;
    /** format_version 3: the verifier's settings, when the run had a verify stage */
    verify?: VerifyParams;
    /** format_version 3: whether the run characterized (its sandbox runs are `char.run` tool events, record/charTap.ts) */
    characterize?: boolean;
    /** format_version 3: the run's resolved scope (--only, --changed-since), so the replay plans the same work */
    scope?: RunScope;
    /** the lessons the run started with, so the replay sends the same envelopes */
    lessons?: RunLesson[];
    /** the person's decisions the run started with, so the replay holds back the same cases */
    decided?: RunDecided;
  };
}

export interface RecordedEvent {
  type: 'task_sent' | 'task_received' | 'response_sent' | 'tool_call' | 'tool_return' | 'state_transition';
  event_id: string;
  agent_id: string;
  timestamp_ns: string;
  parent_event_id: string | null;
  payload_hash: string;
  payload_ref: string;
  recipient_agent_id?: string;
  prompt_hash?: string;
  attempt?: number;
  outcome?: 'reply' | 'error';
  /** response_sent: the tokens the endpoint reported for this reply (absent in older recordings) */
  usage?: RecordedUsage;
  tool?: string;
  args_hash?: string;
  from?: string | null;
  to?: string;
}

export interface Recording {
  header: RecordingHeader;
  /** in replay order: topological by parent_event_id, ties broken by event_id */
  events: RecordedEvent[];
  payloads: Map<string, unknown>;
}

class RecordingError extends Error {
  readonly kind = 'RecordingError';
}

/** Parses and checks a recording. Line order in the file does not matter. */
export async function loadRecording(file: string): Promise<Recording> {
  const text = await fsp.readFile(file, 'utf8');
  return parseRecording(text, file);
}

export function parseRecording(text: string, name = 'recording'): Recording {
  let header: RecordingHeader | undefined;
  const events: RecordedEvent[] = [];
  const payloads = new Map<string, unknown>();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line) continue;
    let obj: { type?: string; hash?: string; data?: unknown };
    try {
      obj = JSON.parse(line);
    } catch (e) {
      throw new RecordingError(`${name}:${i + 1}: not JSON (${(e as Error).message})`);
    }
    if (obj.type === 'header' && (obj as { format_version?: unknown }).format_version === 1)
      throw new RecordingError(
        `${name}:${i + 1}: a format 1 recording (one session per agent, before batching) is no longer replayed; record the run again`,
      );
    const check = validate('recording-event', obj);
    if (!check.ok) throw new RecordingError(`${name}:${i + 1}: not a recording line: ${formatContractErrors(check.errors, 3)}`);
    if (obj.type === 'header') {
      if (header) throw new RecordingError(`${name}:${i + 1}: a second header`);
      header = obj as unknown as RecordingHeader;
    } else if (obj.type === 'payload') {
      if (sha256(canonicalJson(obj.data)) !== obj.hash)
        throw new RecordingError(`${name}:${i + 1}: payload content does not match its hash ${obj.hash}`);
      payloads.set(obj.hash!, obj.data);
    } else events.push(obj as unknown as RecordedEvent);
  }
  if (!header) throw new RecordingError(`${name}: no header line`);
  for (const e of events) {
    if (!payloads.has(e.payload_ref)) throw new RecordingError(`${name}: event ${e.event_id} refers to a missing payload ${e.payload_ref}`);
    if (e.payload_ref.slice(0, 16) !== e.payload_hash)
      throw new RecordingError(`${name}: event ${e.event_id} payload_hash does not match payload_ref`);
  }
  return { header, events: topoOrder(events, name), payloads };
}

/**
 * Kahn's algorithm over parent_event_id. Among events whose parent has been
 * emitted, the smallest event_id goes first, so any line order of the same
 * graph gives the same sequence. Timestamps are never consulted.
 */
function topoOrder(events: RecordedEvent[], name = 'recording'): RecordedEvent[] {
  const byId = new Map<string, RecordedEvent>();
  for (const e of events) {
    if (byId.has(e.event_id)) throw new RecordingError(`${name}: duplicate event_id ${e.event_id}`);
    byId.set(e.event_id, e);
  }
  const children = new Map<string | null, RecordedEvent[]>();
  for (const e of events) {
    if (e.parent_event_id !== null && !byId.has(e.parent_event_id))
      throw new RecordingError(`${name}: event ${e.event_id} has an unknown parent ${e.parent_event_id}`);
    const list = children.get(e.parent_event_id) ?? [];
    list.push(e);
    children.set(e.parent_event_id, list);
  }
  const ready = new MinHeap<RecordedEvent>((a, b) => (a.event_id < b.event_id ? -1 : a.event_id > b.event_id ? 1 : 0));
  for (const e of children.get(null) ?? []) ready.push(e);
  const out: RecordedEvent[] = [];
  while (ready.size) {
    const e = ready.pop()!;
    out.push(e);
    for (const c of children.get(e.event_id) ?? []) ready.push(c);
  }
  if (out.length !== events.length)
    throw new RecordingError(`${name}: the parent links form a cycle (${events.length - out.length} events unreachable)`);
  return out;
}

class MinHeap<T> {
  private a: T[] = [];
  constructor(private readonly cmp: (x: T, y: T) => number) {}
  get size(): number {
    return this.a.length;
  }
  push(v: T): void {
    const a = this.a;
    a.push(v);
    for (let i = a.length - 1; i > 0;) {
      const p = (i - 1) >> 1;
      if (this.cmp(a[i], a[p]) >= 0) break;
      [a[i], a[p]] = [a[p], a[i]];
      i = p;
    }
  }
  pop(): T | undefined {
    const a = this.a;
    const top = a[0];
    const last = a.pop();
    if (a.length && last !== undefined) {
      a[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && this.cmp(a[l], a[m]) < 0) m = l;
        if (r < a.length && this.cmp(a[r], a[m]) < 0) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m], a[i]];
        i = m;
      }
    }
    return top;
  }
}
