// Reads a streamed chat completion: the text deltas, the finish reason, the model and the usage
// chunk (stream_options.include_usage). The timeout counts idle time: it restarts with every chunk,
// so a long reply that keeps streaming is never cut, and a stalled one is given up.
import type { ReplyUsage } from './provider';

export interface StreamedReply {
  content: string;
  refusal: string;
  finishReason: string | null;
  model?: string;
  usage?: ReplyUsage;
}

interface Chunk {
  model?: string;
  choices?: { delta?: { content?: string | null; refusal?: string | null }; finish_reason?: string | null }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number; prompt_tokens_details?: { cached_tokens?: number } | null } | null;
}

/** Aborts its signal after `ms` without a `touch()`. */
export class IdleWatch {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  fired = false;

  constructor(private readonly ms: number) {
    this.touch();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  touch(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.fired = true;
      this.controller.abort();
    }, this.ms);
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}

export function toReplyUsage(u: Chunk['usage']): ReplyUsage | undefined {
  if (!u || typeof u.prompt_tokens !== 'number' || typeof u.completion_tokens !== 'number') return undefined;
  return {
    promptTokens: u.prompt_tokens,
    completionTokens: u.completion_tokens,
    cachedTokens: u.prompt_tokens_details?.cached_tokens ?? 0,
  };
}

export async function readStream(stream: AsyncIterable<unknown>, watch: IdleWatch): Promise<StreamedReply> {
  const out: StreamedReply = { content: '', refusal: '', finishReason: null };
  for await (const raw of stream) {
    watch.touch();
    const chunk = raw as Chunk;
    if (chunk.model) out.model = chunk.model;
    const usage = toReplyUsage(chunk.usage);
    if (usage) out.usage = usage;
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    if (choice.delta?.content) out.content += choice.delta.content;
    if (choice.delta?.refusal) out.refusal += choice.delta.refusal;
    if (choice.finish_reason) out.finishReason = choice.finish_reason;
  }
  return out;
}
