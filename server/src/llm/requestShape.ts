// The body of one chat-completions request, from the agent's request, the endpoint's settings and
// what the endpoint is known to refuse. Pure, so the golden request-shape tests can pin it.
import type { EndpointCapabilities } from './capabilities';
import type { EndpointForm, ResolvedEndpoint } from './endpoint';
import type { ChatRequest } from './provider';
import { responseFormat } from './structuredOutput';

export type ChatBody = Record<string, unknown> & { model: string; stream: true; messages: ChatRequest['messages'] };

/**
 * api.openai.com and Azure take max_completion_tokens (reasoning models refuse max_tokens); local and
 * other compatible servers (Ollama, LM Studio, vLLM, OpenRouter) all take max_tokens. A refusal swaps them.
 */
export function defaultCapabilities(target: EndpointForm): EndpointCapabilities {
  const official =
    target.form === 'azure-classic' ||
    target.form === 'azure-v1' ||
    (target.form === 'openai' && /^https:\/\/api\.openai\.com\//.test(target.baseURL + '/'));
  return { format: 'strict', bound: official ? 'max_completion_tokens' : 'max_tokens', streamUsage: true };
}

export function chatBody(req: ChatRequest, ep: ResolvedEndpoint, caps: EndpointCapabilities): ChatBody {
  const body: ChatBody = {
    model: req.model,
    messages: req.messages,
    temperature: req.temperature,
    top_p: req.top_p,
    seed: req.seed,
    [caps.bound]: req.maxOutputTokens ?? ep.maxOutputTokens,
    stream: true,
  };
  if (caps.streamUsage) body.stream_options = { include_usage: true };
  if (ep.structuredOutput && caps.format !== 'off' && req.responseSchema) {
    body.response_format = responseFormat(req.responseSchema.name, req.responseSchema.schema, caps.format === 'strict');
  }
  return body;
}

const UNSUPPORTED =
  /unsupported|not supported|unrecognized|unknown|not allowed|not permitted|extra (?:fields|inputs)|invalid parameter|use '?max_/i;

/**
 * When a 400/422 names a parameter this request sent and AMTP can do without, the capabilities to
 * retry with; otherwise undefined (the error stands). Structured output steps down strict → loose → off.
 */
export function afterRefusal(
  status: number | undefined,
  message: string,
  body: ChatBody,
  caps: EndpointCapabilities,
): Partial<EndpointCapabilities> | undefined {
  if (status !== 400 && status !== 422) return undefined;
  const rf = body.response_format as { json_schema?: { strict?: boolean } } | undefined;
  if (rf && /response_format|json_schema|structured output/i.test(message)) return { format: rf.json_schema?.strict ? 'loose' : 'off' };
  // Only "this parameter is not accepted" counts; "max_tokens is too large" is an error to show.
  if (!UNSUPPORTED.test(message)) return undefined;
  if (body.stream_options && /stream_options|include_usage/i.test(message)) return { streamUsage: false };
  const other = caps.bound === 'max_tokens' ? 'max_completion_tokens' : 'max_tokens';
  if (new RegExp(`\\b${caps.bound}\\b`).test(message)) return { bound: other };
  return undefined;
}
