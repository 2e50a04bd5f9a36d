// Reads a streamed chat completion: the text deltas, the finish reason, the model and the usage
// chunk (stream_options.include_usage). Two clocks bound a request: the idle timeout restarts with
// every chunk (a stalled stream is given up), the total deadline does not (a stream that trickles
// forever is given up too). The text is bounded as well: past `limitBytes` reading stops.
import type { ReplyUsage } from './provider';

export interface StreamedReply {
  content: string;
  refusal: string;
  finishReason: string | null;
  model?: string;
  usage?: ReplyUsage;
  /** reading stopped at the byte limit: the reply went on past it */
  cut?: boolean;
  /** UTF-8 bytes of content and refusal read */
  bytes: number;
}

interface Chunk {
  model?: string;
  choices?: { delta?: { content?: string | null; refusal?: string | null }; finish_reason?: string | null }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number; prompt_tokens_details?: { cached_tokens?: number } | null } | null;
}

/** Aborts its signal after `idleMs` without a `touch()`, or `deadlineMs` after it was made, whichever comes first. */
export class RequestWatch {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private readonly deadline: NodeJS.Timeout;
  fired: 'idle' | 'deadline' | undefined;

  constructor(
    private readonly idleMs: number,
    deadlineMs: number,
  ) {
    this.deadline = setTimeout(() => this.fire('deadline'), deadlineMs);
    this.touch();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  touch(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.fire('idle'), this.idleMs);
  }

  stop(): void {
    clearTimeout(this.timer);
    clearTimeout(this.deadline);
  }

  private fire(why: 'idle' | 'deadline'): void {
    if (this.fired) return;
    this.fired = why;
    this.stop();
    this.controller.abort();
  }
}

function toReplyUsage(u: Chunk['usage']): ReplyUsage | undefined {
  if (!u || typeof u.prompt_tokens !== 'number' || typeof u.completion_tokens !== 'number') return undefined;
  return {
    promptTokens: u.prompt_tokens,
    completionTokens: u.completion_tokens,
    cachedTokens: u.prompt_tokens_details?.cached_tokens ?? 0,
  };
}

/** Reads the stream to its end, or until its text passes `limitBytes` (leaving the loop closes the request). */
export async function readStream(stream: AsyncIterable<unknown>, watch: RequestWatch, limitBytes: number): Promise<StreamedReply> {
  const out: StreamedReply = { content: '', refusal: '', finishReason: null, bytes: 0 };
  for await (const raw of stream) {
    watch.touch();
    const chunk = raw as Chunk;
    if (typeof chunk.model === 'string') out.model = chunk.model;
    const usage = toReplyUsage(chunk.usage);
    if (usage) out.usage = usage;
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    const text = typeof choice.delta?.content === 'string' ? choice.delta.content : '';
    const refusal = typeof choice.delta?.refusal === 'string' ? choice.delta.refusal : '';
    out.content += text;
    out.refusal += refusal;
    if (typeof choice.finish_reason === 'string') out.finishReason = choice.finish_reason;
    out.bytes += Buffer.byteLength(text, 'utf8') + Buffer.byteLength(refusal, 'utf8');
    if (out.bytes > limitBytes) {
      out.cut = true;
      break;
    }
  }
  return out;
}
