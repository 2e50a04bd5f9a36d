import type { AgentId } from '../core/agents';
import { CancelledError } from '../core/errors';
import { LlmConfigError, MalformedLlmOutput, RateLimitError, TransientLlmError } from './errors';
import type { ChatReply, ChatRequest, LlmProvider, LlmSession } from './provider';
import { redactText } from '../util/redact';

export interface OpenAiSettings {
  apiKey?: string;
  baseURL?: string;
  /** per-request timeout; a timeout is a transient error the orchestrator retries */
  timeoutMs?: number;
}

/**
 * Any OpenAI-compatible endpoint (OpenAI, Azure, Ollama, LM Studio, vLLM).
 * The SDK's own retries are off (maxRetries: 0): the orchestrator owns the policy.
 */
export class OpenAiProvider implements LlmProvider {
  readonly name = 'openai';
  constructor(private readonly settings: OpenAiSettings) {
    if (!settings.apiKey) throw new LlmConfigError('No API key: set OPENAI_API_KEY (CLI) or run "AMTP: Set API Key" (VS Code), or use --provider offline.');
  }

  openSession(agent: AgentId): LlmSession {
    return new OpenAiSession(agent, this.settings);
  }
}

class OpenAiSession implements LlmSession {
  private used = false;
  constructor(private readonly agent: AgentId, private readonly settings: OpenAiSettings) {}

  async complete(req: ChatRequest): Promise<ChatReply> {
    if (this.used) throw new Error('an LLM session serves exactly one request');
    this.used = true;
    // Loaded lazily: the SDK is large and most CLI commands never call a model.
    const { default: OpenAI } = await import('openai');
    // A new client per session: no connection pool, history or state crosses an agent boundary.
    const client = new OpenAI({ apiKey: this.settings.apiKey, baseURL: this.settings.baseURL, maxRetries: 0, timeout: this.settings.timeoutMs ?? 120_000 });
    try {
      const res = await client.chat.completions.create(
        { model: req.model, messages: req.messages, temperature: req.temperature, top_p: req.top_p, seed: req.seed },
        { signal: req.signal },
      );
      const choice = res.choices?.[0];
      const content = choice?.message?.content;
      if (typeof content !== 'string') throw new MalformedLlmOutput(`${this.agent}: the reply has no message content`, JSON.stringify(res).slice(0, 200));
      return { content, model: res.model ?? req.model };
    } catch (e) {
      throw mapOpenAiError(e, this.settings, req.signal);
    }
  }
}

export function mapOpenAiError(e: unknown, settings: OpenAiSettings, signal?: AbortSignal): unknown {
  if (signal?.aborted) return new CancelledError();
  const raw = e as { status?: number; headers?: Headers; name?: string; message?: string; constructor?: { name?: string } };
  // Error bodies come from the endpoint, and some echo the request's key back ("invalid key sk-…").
  // These messages end up in the run record, logs and summaries, so the key is cut out here.
  const err = { status: raw?.status, headers: raw?.headers, name: raw?.name, constructor: raw?.constructor, message: raw?.message === undefined ? undefined : redactText(raw.message, settings.apiKey ? [settings.apiKey] : []) };
  const name = err?.constructor?.name ?? err?.name ?? '';
  const status = typeof err?.status === 'number' ? err.status : undefined;
  const where = settings.baseURL ?? 'https://api.openai.com/v1';
  if (status === 429) return new RateLimitError(`rate limited by ${where}: ${err.message ?? ''}`, retryAfterMs(err.headers));
  if (status !== undefined && status >= 500) return new TransientLlmError(`server error ${status} from ${where}: ${err.message ?? ''}`);
  if (status === 408 || status === 409) return new TransientLlmError(`${status} from ${where}`);
  if (status === 401 || status === 403) return new LlmConfigError(`${status} from ${where}: the API key was refused. Fix OPENAI_API_KEY (CLI) or "AMTP: Set API Key" (VS Code).`);
  if (status === 404) return new LlmConfigError(`404 from ${where}: check the model name (--model, AMTP_MODEL, amtp.models.*) and the base URL (OPENAI_BASE_URL, amtp.baseURL).`);
  if (status !== undefined && status >= 400) return new LlmConfigError(`${status} from ${where}: ${err.message ?? ''}. Check amtp.baseURL / OPENAI_BASE_URL and the model settings.`);
  if (/APIConnectionTimeoutError|APIConnectionError|AbortError|FetchError/.test(name) || /ECONNRESET|ECONNREFUSED|socket hang up|timed out|terminated/i.test(err?.message ?? '')) {
    return new TransientLlmError(`cannot reach ${where}: ${err.message ?? name}`);
  }
  if (e instanceof Error && settings.apiKey && e.message.includes(settings.apiKey)) e.message = redactText(e.message, [settings.apiKey]);
  return e;
}

/** Retry-After is seconds or an HTTP date; some servers send retry-after-ms. */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | undefined {
  if (!headers || typeof headers.get !== 'function') return undefined;
  const ms = Number(headers.get('retry-after-ms'));
  if (Number.isFinite(ms) && ms >= 0 && headers.get('retry-after-ms') !== null) return ms;
  const raw = headers.get('retry-after');
  if (raw === null) return undefined;
  const secs = Number(raw);
  if (Number.isFinite(secs) && secs >= 0) return secs * 1000;
  const date = Date.parse(raw);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}
