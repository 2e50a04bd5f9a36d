import { randomUUID } from 'node:crypto';
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import * as path from 'node:path';
import { SCHEMAS } from '../contracts/schemas';
import { SANITIZER_VERSION } from '../llm/sanitize';
import { canonicalJson, sha256 } from '../core/canonical';
import { DEFAULT_BATCHING, type RunParams } from '../core/run';
import { redactValue } from '../util/redact';

export type RecordedAgent = 'orchestrator' | 'crawler' | 'generator' | 'engineer' | 'verifier' | 'workspace';

export interface HeaderRun {
  run_id: string;
  workspace_name: string;
  params: RunParams;
}

/**
 * Writes a recording: JSONL, one line per header, event or payload. Payloads
 * are stored once by content hash, after redaction, so the file is
 * self-contained and carries no secret. Lines are written as they happen, so a
 * crash keeps everything up to the crash.
 */
export class Recorder {
  private fd: number;
  private readonly written = new Set<string>();
  private last: string | null = null;

  constructor(
    readonly file: string,
    private readonly secrets: readonly string[] = [],
  ) {
    mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    this.fd = openSync(file, 'w');
  }

  header(h: HeaderRun): void {
    const p = h.params;
    this.line({
      type: 'header',
      format: 'amtp-recording',
      format_version: 3,
      sanitizer: SANITIZER_VERSION,
      schemas: Object.fromEntries(Object.entries(SCHEMAS).map(([k, s]) => [k, s.$id])),
      run: {
        run_id: h.run_id,
        workspace_name: h.workspace_name,
        depth: p.depth,
        framework: p.framework,
        provider: p.provider,
        models: p.models,
        seed: p.seed,
        temperature: p.temperature,
        max_attempts: p.maxAttempts,
        batching: p.batching ?? DEFAULT_BATCHING,
        ...(p.verify ? { verify: p.verify } : {}),
        ...(p.characterize !== undefined ? { characterize: p.characterize } : {}),
        ...(p.scope ? { scope: p.scope } : {}),
      },
    });
  }

  /** Stores a payload (once) and returns its full hash and the 16-hex prefix events carry. */
  payload(data: unknown): { ref: string; short: string } {
    const clean = redactValue(data, this.secrets);
    const ref = sha256(canonicalJson(clean));
    if (!this.written.has(ref)) {
      this.written.add(ref);
      this.line({ type: 'payload', hash: ref, data: clean });
    }
    return { ref, short: ref.slice(0, 16) };
  }

  /**
   * The pipeline is sequential, so an event follows from the last one written
   * unless the caller names its cause (a reply answers its task, a return its call).
   */
  event(type: string, agent: RecordedAgent, data: unknown, extra: Record<string, unknown> = {}, parent: string | null = this.last): string {
    const event_id = randomUUID();
    const { ref, short } = this.payload(data);
    this.line({
      type,
      event_id,
      agent_id: agent,
      timestamp_ns: process.hrtime.bigint().toString(),
      parent_event_id: parent,
      payload_hash: short,
      payload_ref: ref,
      ...extra,
    });
    this.last = event_id;
    return event_id;
  }

  transition(from: string | null, to: string, state: unknown): string {
    return this.event('state_transition', 'orchestrator', state, { from, to });
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }

  private line(obj: unknown): void {
    if (this.fd < 0) throw new Error('recording is closed');
    writeSync(this.fd, JSON.stringify(obj) + '\n');
  }
}
