// Any OpenAI-compatible endpoint (OpenAI, Ollama, LM Studio, vLLM, OpenRouter) and Azure OpenAI.
// Every request streams, carries an output bound, asks for structured output where the endpoint
// takes it, and reports the endpoint's token usage. What an endpoint refuses is remembered
// (llm/capabilities.ts) and the request is sent again without it.
import type { AgentId } from '../core/agents';
import { AmtpError, CancelledError } from '../core/errors';
import { CapabilityMemory, sharedCapabilities, type EndpointCapabilities } from './capabilities';
import { resolveEndpoint, type EndpointSettings, type ResolvedEndpoint } from './endpoint';
import { MalformedLlmOutput, OutputTruncated, TransientLlmError } from './errors';
import { sdkClient } from './openaiClient';
import { mapOpenAiError, rawError } from './openaiErrors';
import type { ChatReply, ChatRequest, LlmProvider, LlmSession } from './provider';
import { afterRefusal, chatBody, defaultCapabilities, type ChatBody } from './requestShape';
import { defaultDeadlineSeconds, overCap, streamLimitBytes } from './replyLimits';
import { RequestWatch, readStream, type StreamedReply } from './stream';
import { redactKnown } from '../util/redact';

export interface OpenAiSettings extends Omit<EndpointSettings, 'kind'> {
  kind?: EndpointSettings['kind'];
  /** the idle timeout in milliseconds (tests); overrides timeoutSeconds */
  timeoutMs?: number;
  /** where refusals are remembered; default: the process's memory, backed by the user's cache dir */
  capabilities?: CapabilityMemory;
  /** one line for the person when AMTP changes what it sends (never a secret) */
  log?: (line: string) => void;
}

/** How often one request may be re-sent without a refused parameter (structured output takes two steps). */
const MAX_NEGOTIATIONS = 3;

export class OpenAiProvider implements LlmProvider {
  readonly name: string;
  private readonly endpoint: ResolvedEndpoint;

  constructor(private readonly settings: OpenAiSettings) {
    const kind = settings.kind ?? 'openai';
    // Resolved up front: a missing key or a bad URL fails the run before any agent starts.
    this.endpoint = resolveEndpoint({ ...settings, kind, ...(settings.timeoutMs ? { timeoutSeconds: settings.timeoutMs / 1000 } : {}) });
    this.name = kind;
  }

  openSession(agent: AgentId): LlmSession {
    return new OpenAiSession(agent, this.endpoint, this.settings.capabilities ?? sharedCapabilities(), this.settings.log);
  }
}

class OpenAiSession implements LlmSession {
  private used = false;
  constructor(
    private readonly agent: AgentId,
    private readonly ep: ResolvedEndpoint,
    private readonly memory: CapabilityMemory,
    private readonly log?: (line: string) => void,
  ) {}

  async complete(req: ChatRequest): Promise<ChatReply> {
    if (this.used) throw new Error('an LLM session serves exactly one request');
    this.used = true;
    const key = CapabilityMemory.key(this.ep.where, req.model);
    let caps = this.memory.get(key, defaultCapabilities(this.ep.target));
    const client = await sdkClient(this.ep);
    // A refused parameter produced no reply, so sending again without it is still the session's one request.
    const bound = req.maxOutputTokens ?? this.ep.maxOutputTokens;
    for (let n = 0; ; n++) {
      const body = chatBody(req, this.ep, caps);
      try {
        return this.accept(req, bound, await this.send(client, body, bound, req.signal));
      } catch (e) {
        if (e instanceof AmtpError) throw e;
        const raw = rawError(e, this.ep.secrets);
        const change = req.signal?.aborted || n >= MAX_NEGOTIATIONS ? undefined : afterRefusal(raw.status, raw.message, body, caps);
        if (!change) throw mapOpenAiError(e, this.ep, req.signal);
        this.memory.remember(key, change);
        caps = { ...caps, ...change };
        this.log?.(
          `${this.ep.where} refused ${describeChange(change)} for model ${req.model} (${raw.status}: ${raw.message.slice(0, 160)}); sending without it from now on`,
        );
      }
    }
  }

  private async send(
    client: Awaited<ReturnType<typeof sdkClient>>,
    body: ChatBody,
    bound: number,
    signal?: AbortSignal,
  ): Promise<StreamedReply> {
    const deadlineMs = this.ep.deadlineMs ?? defaultDeadlineSeconds(this.ep.idleTimeoutMs / 1000, bound) * 1000;
    const watch = new RequestWatch(this.ep.idleTimeoutMs, deadlineMs);
    const stopped = () => {
      if (signal?.aborted) return new CancelledError();
      if (watch.fired === 'deadline')
        return new TransientLlmError(
          `no complete reply from ${this.ep.where} within the total deadline of ${deadlineMs / 1000} s: given up. Set it with --deadline, AMTP_DEADLINE_SECONDS or amtp.modelDeadlineSeconds.`,
        );
      const s = this.ep.idleTimeoutMs / 1000;
      return new TransientLlmError(
        `no data from ${this.ep.where} for ${s} s: timed out. The timeout counts idle time before and between streamed chunks; raise it with --timeout, AMTP_TIMEOUT_SECONDS or amtp.modelTimeoutSeconds.`,
      );
    };
    try {
      const stream = await client.chat.completions.create(body as never, {
        signal: signal ? AbortSignal.any([signal, watch.signal]) : watch.signal,
      });
      const reply = await readStream(stream as unknown as AsyncIterable<unknown>, watch, streamLimitBytes(bound));
      // The SDK's stream ends quietly when its signal aborts: what it read so far is not a reply.
      if (watch.fired || signal?.aborted) throw stopped();
      return reply;
    } catch (e) {
      if (e instanceof AmtpError) throw e;
      if (watch.fired || signal?.aborted) throw stopped();
      throw e;
    } finally {
      watch.stop();
    }
  }

  /**
   * The reply as the rest of AMTP sees it. The endpoint's own text never carries the key or a header
   * value past this point: a model (or proxy) that echoes them has them cut out before anything is
   * parsed, stored, recorded or printed.
   */
  private accept(req: ChatRequest, bound: number, raw: StreamedReply): ChatReply {
    const r = { ...raw, ...redactReply(raw, this.ep.secrets) };
    if (r.cut) {
      const over = overCap(this.agent, r.bytes, r.usage);
      if (over) throw over;
      throw new OutputTruncated(
        `${this.agent}: the reply went on past its output bound of ${bound} tokens (cut after ${r.bytes} bytes, 1.5 × the bound at ≈4 bytes a token); raise it with --max-output-tokens, AMTP_MAX_OUTPUT_TOKENS or amtp.maxOutputTokens`,
        bound,
        r.content.slice(-200),
        r.usage,
      );
    }
    // An endpoint that does not keep to the bound (a proxy, a relay) reports more completion tokens
    // than it was given: a model that keeps to it would have stopped there, so the reply is taken as
    // cut, and its batch splits, as that model's would.
    if (r.usage && r.usage.completionTokens > bound) {
      throw new OutputTruncated(
        `${this.agent}: the reply is ${r.usage.completionTokens} tokens by the endpoint's count, past its output bound of ${bound} tokens (finish_reason ${JSON.stringify(r.finishReason ?? null)}): taken as cut at the bound, as a model that keeps to it would have stopped there`,
        bound,
        r.content.slice(-200),
        r.usage,
      );
    }
    if (r.finishReason === 'length') {
      throw new OutputTruncated(
        `${this.agent}: the reply stopped at the output bound of ${bound} tokens (finish_reason "length"); raise it with --max-output-tokens, AMTP_MAX_OUTPUT_TOKENS or amtp.maxOutputTokens`,
        bound,
        r.content.slice(-200),
        r.usage,
      );
    }
    if (!r.content && r.refusal)
      throw new MalformedLlmOutput(`${this.agent}: the model refused: ${r.refusal.slice(0, 200)}`, r.refusal.slice(0, 200), r.usage);
    if (!r.content)
      throw new MalformedLlmOutput(
        `${this.agent}: the reply has no message content (finish_reason ${JSON.stringify(r.finishReason)})`,
        '',
        r.usage,
      );
    return { content: r.content, model: r.model ?? req.model, ...(r.usage ? { usage: r.usage } : {}) };
  }
}

/** The strings of a reply with the known secrets cut out (the model name too: a hostile endpoint chooses it). */
function redactReply(r: StreamedReply, secrets: readonly string[]): Pick<StreamedReply, 'content' | 'refusal' | 'model'> {
  return {
    content: redactKnown(r.content, secrets),
    refusal: redactKnown(r.refusal, secrets),
    ...(r.model !== undefined ? { model: redactKnown(r.model, secrets) } : {}),
  };
}

function describeChange(c: Partial<EndpointCapabilities>): string {
  if (c.format === 'loose') return 'strict structured output';
  if (c.format === 'off') return 'structured output (response_format)';
  if (c.streamUsage === false) return 'stream_options.include_usage';
  return c.bound === 'max_tokens' ? 'max_completion_tokens (using max_tokens)' : 'max_tokens (using max_completion_tokens)';
}
